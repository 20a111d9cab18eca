"""One error shape for every endpoint: `{"error": {"code", "message", "details"}}` with the right status.

Services raise `QuireError`; FastAPI's own HTTP and validation errors are rendered the same way, and
anything unexpected becomes a 500 with no stack trace sent to the client. Every code a client can meet
(an error body, a chat stream's `error` line, a failed job, a refused file) is one of `ErrorCode`: a
closed set that mypy holds every raise to and that the OpenAPI document lists (schema `ErrorCode`).
"""

from __future__ import annotations

import logging
from typing import Any, Literal, TypeVar, get_args

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger(__name__)

T = TypeVar("T")

ErrorCode = Literal[
    # HTTP and request shape (any endpoint)
    "bad_request", "unauthorized", "forbidden", "not_found", "method_not_allowed", "conflict", "too_large",
    "unsupported_media_type", "invalid_request", "too_many_requests", "unavailable", "http_error",
    "internal_error", "host_not_allowed", "cross_site_request", "database_unavailable", "busy",
    "malformed_upload", "request_too_large", "too_many_fields", "field_too_large", "too_many_files",
    # documents: uploads, reading files, versions, the trash
    "no_files", "empty_file", "duplicate_name", "invalid_category", "invalid_on_conflict", "name_conflict",
    "name_taken", "unsupported_type", "content_mismatch", "zip_bomb", "pdf_corrupt", "pdf_encrypted",
    "pdf_no_pages", "unreadable_pdf", "csv_corrupt", "docx_corrupt", "pptx_corrupt", "xlsx_corrupt",
    "image_too_large", "image_unreadable", "ocr_unreadable", "invalid_filename",
    "no_text", "extract_failed", "file_missing", "original_missing", "not_ready", "not_failed", "not_trashed",
    "current_version", "invalid_document_id", "unknown_documents", "scope_too_large",
    # URL import
    "url_invalid", "url_scheme", "url_private", "url_unresolvable", "url_unreachable", "url_timeout",
    "url_redirects", "url_http_error", "url_too_large",
    # viewer
    "not_a_pdf", "page_out_of_range", "page_too_complex", "block_not_found", "missing_passage",
    "invalid_page_range", "out_of_range",
    # search and chat
    "empty_query", "query_too_long", "empty_message", "message_too_long", "too_many_attachments",
    "invalid_attachment", "unsupported_attachment", "attachment_too_large", "attachment_unreadable",
    "attachment_failed", "invalid_session_id", "rewind_without_session", "reuse_without_rewind",
    "invalid_content", "model_unavailable", "model_error", "empty_answer", "prompt_error", "storage_error",
    # the vault's embedding model
    "unknown_embedding_model",
    # study
    "generation_failed", "empty_scope", "empty_title", "lessons_incomplete", "already_answered",
    "invalid_choice", "review_conflict", "unknown_nodes",
    # voice
    "voice_unavailable", "missing_audio", "audio_too_large", "audio_too_long",
    "unreadable_audio", "unsupported_audio", "unsupported_language", "audio_too_complex",
    # the study loop: weak spots, the scheduler's fit, exam plans, items whose source changed, card drafts
    "no_weak_spots", "not_enough_reviews", "optimizer_missing", "fit_failed", "exam_in_past", "exam_too_far",
    "passage_removed", "missing_update", "invalid_card", "draft_failed", "lesson_not_written",
    # notes
    "not_a_note", "note_moved", "note_refused",
]
ERROR_CODES: tuple[str, ...] = get_args(ErrorCode)

_STATUS_CODES: dict[int, ErrorCode] = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "too_many_requests",
    503: "unavailable",
}


class QuireError(Exception):
    def __init__(self, code: ErrorCode, message: str, status: int = 400, details: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.details = details


class NotFound(QuireError):
    def __init__(self, what: str, ident: str) -> None:
        super().__init__("not_found", f"{what} {ident!r} does not exist.", 404)


def found(row: T | None, what: str, ident: str) -> T:
    """`row`, or `NotFound(what, ident)` where the read by id found nothing: every service's getter."""
    if row is None:
        raise NotFound(what, ident)
    return row


def error_body(code: ErrorCode, message: str, details: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    return {"error": body}


def error_response(status: int, code: ErrorCode, message: str, details: Any = None) -> JSONResponse:
    return JSONResponse(error_body(code, message, details), status_code=status)


def _validation_details(exc: RequestValidationError) -> list[dict[str, Any]]:
    return [
        {"loc": [str(part) for part in err.get("loc", ())], "message": err.get("msg", "")}
        for err in exc.errors()
    ]


async def _quire_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, QuireError)
    return error_response(exc.status, exc.code, exc.message, exc.details)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    code = _STATUS_CODES.get(exc.status_code, "http_error")
    message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
    headers = exc.headers or {}
    if exc.status_code == 405 and "Allow" in headers:
        message = f"{request.method} is not allowed at {request.url.path}; it takes {headers['Allow']}."
    response = error_response(exc.status_code, code, message)
    response.headers.update(headers)  # 405's Allow (RFC 9110 requires it), 401's WWW-Authenticate, ...
    return response


async def _validation_error(_: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    details = _validation_details(exc)
    first = details[0] if details else {"loc": [], "message": "invalid request"}
    where = ".".join(p for p in first["loc"] if p not in ("body", "query", "path"))
    message = f"{where}: {first['message']}" if where else str(first["message"])
    return error_response(422, "invalid_request", message, details)


async def _unexpected_error(request: Request, exc: Exception) -> JSONResponse:
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return error_response(500, "internal_error", "Something went wrong on the server; see its log.")


def install_error_handlers(app: FastAPI) -> None:
    app.add_exception_handler(QuireError, _quire_error)
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(Exception, _unexpected_error)
