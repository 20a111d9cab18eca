"""`GET /api/docs`: Swagger UI for the API, entirely from this server.

FastAPI's default page loads Swagger UI from a CDN and starts it with an inline script; the app's
Content-Security-Policy blocks both (and a local-first app must not fetch from the internet anyway).
The front-end build copies Swagger UI's pinned files (npm `swagger-ui-dist`) into `dist/api-docs/`
beside a start-up script of our own, and this page only refers to those.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

router = APIRouter(tags=["docs"])

_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Quire API</title>
<link rel="icon" href="/favicon.svg">
<link rel="stylesheet" href="/api-docs/swagger-ui.css">
</head>
<body>
<noscript>The API documentation needs JavaScript; the schema itself is at /api/openapi.json.</noscript>
<div id="swagger-ui"></div>
<script src="/api-docs/swagger-ui-bundle.js"></script>
<script src="/api-docs/init.js"></script>
</body>
</html>
"""


@router.get("/api/docs", include_in_schema=False, response_class=HTMLResponse)
async def api_docs() -> HTMLResponse:
    return HTMLResponse(_PAGE, headers={"Cache-Control": "no-cache"})
