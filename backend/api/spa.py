"""Serving the built React app: hashed assets with long caching, and `index.html` for client routes.

Only HTML navigations get `index.html`; an unknown `/api/...` path stays a JSON 404.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

from backend.errors import error_response

_NOT_BUILT = """<!doctype html><meta charset="utf-8"><title>Quire</title>
<body style="font-family:system-ui;max-width:40rem;margin:4rem auto">
<h1>Quire's web app is not built</h1><p>Run <code>./scripts/start.sh</code> (it builds the front end), or
<code>cd frontend &amp;&amp; npm ci &amp;&amp; npm run build</code>.
The API is up: see <a href="/api/docs">/api/docs</a>.</p>"""


class _ImmutableAssets(StaticFiles):
    async def get_response(self, path: str, scope):  # type: ignore[no-untyped-def]
        response = await super().get_response(path, scope)
        if response.status_code == 200:
            response.headers["Cache-Control"] = "public, max-age=31536000, immutable"
        return response


def mount(app: FastAPI, dist: Path) -> None:
    assets = dist / "assets"
    if assets.is_dir():
        app.mount("/assets", _ImmutableAssets(directory=assets), name="assets")
    index = dist / "index.html"

    @app.get("/{path:path}", include_in_schema=False, response_model=None)
    async def client_route(path: str, request: Request) -> FileResponse | HTMLResponse | JSONResponse:
        if path.startswith("api/") or path == "api":
            return error_response(404, "not_found", f"No API endpoint at /{path}.")
        static = (dist / path).resolve()
        if path and static.is_file() and static.is_relative_to(dist.resolve()):
            return FileResponse(static)
        if "text/html" not in request.headers.get("accept", "text/html"):
            return error_response(404, "not_found", f"Nothing at /{path}.")
        if not index.is_file():
            return HTMLResponse(_NOT_BUILT, status_code=503)
        return FileResponse(index, headers={"Cache-Control": "no-cache"})
