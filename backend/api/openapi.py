"""The OpenAPI document (`/api/openapi.json`, `/api/docs`) tells the truth about errors.

FastAPI documents a 422 whose body is its own `HTTPValidationError` (`{"detail": [...]}`), which Quire
never sends (backend/errors.py renders every error as `{"error": {"code", "message", "details"}}`), and
nothing else. Here every operation gets:
- its 422 with Quire's error shape;
- a 404 when its path names something (`{document_id}`, ...) that may not exist;
- a `default` response for the other errors an endpoint may answer (400, 409, 413, 415, 503...), each
  with its own `code`, so a client generated from the document knows every error's shape;
- `ErrorCode`, the closed set of codes (backend/errors.py), which the error body's `code` is one of;
- `ChatStreamLine`, what each line of the chat's NDJSON stream is (backend/agent/stream.py), and the
  records it carries, which no JSON endpoint returns whole.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi
from pydantic import TypeAdapter

from backend.agent.stream import ChatStreamLine
from backend.errors import ERROR_CODES

ERROR_SCHEMA: dict[str, Any] = {
    "title": "Error",
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "properties": {
                "code": {"$ref": "#/components/schemas/ErrorCode"},
                "message": {"type": "string", "description": "What went wrong, in words for people"},
                "details": {"description": "More, where the error has it (per-field problems of a 422)"},
            },
        },
    },
}
_ERROR = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
_FASTAPI_VALIDATION = ("HTTPValidationError", "ValidationError")


def install(app: FastAPI) -> None:
    """Make `app.openapi()` build (once) the document with Quire's error responses."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, routes=app.routes)
            app.openapi_schema = with_errors(schema)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to customise it


def with_errors(schema: dict[str, Any]) -> dict[str, Any]:
    for path, operations in schema.get("paths", {}).items():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            if "422" in responses:
                responses["422"] = {"description": "Invalid request: `invalid_request` (each field's problem "
                                                   "in `details`) or a rule of this endpoint",
                                    "content": _ERROR}
            if "{" in path:
                responses.setdefault("404", {"description": "Not found: `not_found`", "content": _ERROR})
            responses.setdefault("default", {"description": "Any other error, with its own `code`",
                                             "content": _ERROR})
    schemas = schema.setdefault("components", {}).setdefault("schemas", {})
    for name in _FASTAPI_VALIDATION:
        schemas.pop(name, None)
    schemas["Error"] = ERROR_SCHEMA
    stream = TypeAdapter(ChatStreamLine).json_schema(ref_template="#/components/schemas/{model}")
    for name, definition in stream.pop("$defs", {}).items():
        schemas.setdefault(name, definition)
    schemas["ChatStreamLine"] = {"title": "ChatStreamLine", **stream}
    schemas["ErrorCode"] = {"title": "ErrorCode", "type": "string", "enum": list(ERROR_CODES),
                            "description": "What went wrong, for programs (`not_found`, ...)"}
    return schema
