"""Request guards: Host allow-list (no DNS rebinding), no cross-site writes, optional API token,
and security headers on every response. Pure ASGI so streamed responses pass through untouched.
"""

from __future__ import annotations

import hmac
import json
from http.cookies import SimpleCookie
from urllib.parse import urlsplit

from fastapi import HTTPException
from starlette.datastructures import Headers, MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from backend.config import Settings
from backend.errors import ErrorCode

_SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}
# JSON bodies are parsed in memory, so their size is capped while they stream in, before the app holds them
# whole. Chat carries base64 attachments (QUIRE_MAX_CHAT_BODY_MB in all); uploads stream to disk through
# their own per-file and per-request limits instead (backend/api/upload_stream.py).
_DEFAULT_BODY_LIMIT = 1024 * 1024
_LOOPBACK_NAMES = {"127.0.0.1", "localhost", "::1", "[::1]"}
_OPEN_PATHS = frozenset({"/api/health", "/api/health/ready"})
TOKEN_COOKIE = "quire_token"  # noqa: S105 - a cookie name, not a secret

SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "SAMEORIGIN",
    "content-security-policy": (
        "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
        "script-src 'self'; connect-src 'self'; font-src 'self' data:; frame-src 'self' blob:; "
        "object-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"
    ),
}


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _hostname(host_header: str) -> str:
    return (urlsplit(f"//{host_header}").hostname or "").lower()


def _origin(scheme: str, netloc: str) -> tuple[str, str, int] | None:
    """(scheme, host, port) with the scheme's default port filled in; None when malformed."""
    try:
        parts = urlsplit(f"//{netloc}")
        port = parts.port or _DEFAULT_PORTS.get(scheme.lower())
    except ValueError:
        return None
    if not parts.hostname or port is None:
        return None
    return scheme.lower(), parts.hostname.lower(), port


def _same_origin(origin_header: str, scope: Scope, host_header: str) -> bool:
    """Same origin means the same scheme, host and port as the address this request was sent to: a page
    on another local port (a dev server, a notebook) is another site, whatever its host name."""
    origin = urlsplit(origin_header)
    theirs = _origin(origin.scheme, origin.netloc)
    return theirs is not None and theirs == _origin(scope.get("scheme", "http"), host_header)


class RequestGuard:
    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.allowed = _LOOPBACK_NAMES | {h.lower() for h in settings.allowed_hosts} | {settings.host.lower()}
        self.token = settings.api_token
        self.body_limits: dict[str, int | None] = {
            "/api/chat": settings.tuning.max_chat_body_mb * 1024 * 1024,
            "/api/documents": None,
            # Beyond any recording QUIRE_VOICE_MAX_SECONDS allows; the route checks its own limit.
            "/api/transcribe": 51 * 1024 * 1024,
            "/mcp": 8 * 1024 * 1024,  # JSON-RPC; the write tool's upload is at most 5 MB before base64
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await _send_error(send, *refusal)
            return
        limit = self.body_limits.get(scope["path"], _DEFAULT_BODY_LIMIT)
        declared = headers.get("content-length", "")
        if limit is not None and declared.isdigit() and int(declared) > limit:
            await _send_error(send, 413, "too_large", _too_large(limit))
            return
        if limit is not None:
            receive = _capped(receive, limit)
        await self.app(scope, receive, _with_security_headers(send))

    def _refusal(self, scope: Scope, headers: Headers) -> tuple[int, ErrorCode, str] | None:
        if _hostname(headers.get("host", "")) not in self.allowed:
            return 403, "host_not_allowed", "This Host is not allowed; open Quire at its own address."
        if scope["method"] not in _SAFE_METHODS and self._cross_site(scope, headers):
            return 403, "cross_site_request", "Cross-site requests are not accepted."
        path: str = scope["path"]
        # The API, the MCP server (backend/mcp) and the Prometheus metrics; the health checks stay open.
        guarded = path.startswith("/api/") or path in ("/mcp", "/metrics")
        if self.token and guarded and path not in _OPEN_PATHS and not self._authorised(headers):
            return 401, "unauthorized", "This Quire server needs its API token."
        return None

    def _cross_site(self, scope: Scope, headers: Headers) -> bool:
        if headers.get("sec-fetch-site") == "cross-site":
            return True
        origin = headers.get("origin")
        if not origin or origin == "null":
            return origin == "null"
        return not _same_origin(origin, scope, headers.get("host", ""))

    def _authorised(self, headers: Headers) -> bool:
        assert self.token is not None
        supplied = headers.get("authorization", "").removeprefix("Bearer ").strip()
        if not supplied:
            cookie = SimpleCookie(headers.get("cookie", ""))
            supplied = cookie[TOKEN_COOKIE].value if TOKEN_COOKIE in cookie else ""
        return hmac.compare_digest(supplied.encode(), self.token.encode())


def _too_large(limit: int) -> str:
    size = f"{limit // (1024 * 1024)} MB" if limit >= 1024 * 1024 else f"{limit // 1024} KB"
    return f"The request body is larger than {size}."


def _capped(receive: Receive, limit: int) -> Receive:
    """For bodies without a (truthful) Content-Length: a 413 as soon as the bytes read pass the limit;
    the rest of the body is never read."""
    received = 0

    async def wrapped() -> Message:
        nonlocal received
        message = await receive()
        if message["type"] == "http.request":
            received += len(message.get("body", b""))
            if received > limit:
                raise HTTPException(413, _too_large(limit))
        return message

    return wrapped


def _with_security_headers(send: Send) -> Send:
    async def wrapped(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = MutableHeaders(scope=message)
            for name, value in SECURITY_HEADERS.items():
                headers.setdefault(name, value)
        await send(message)

    return wrapped


async def _send_error(send: Send, status: int, code: ErrorCode, message: str) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
        }
    )
    await send({"type": "http.response.body", "body": body})
