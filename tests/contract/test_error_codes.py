"""The error codes are one closed set (`backend.errors.ErrorCode`): the OpenAPI document lists exactly
that set for the error body's `code`, and every code in it is raised somewhere (a code nothing raises
would promise clients an error that never comes)."""

from __future__ import annotations

import re
from pathlib import Path

from backend.config import Settings
from backend.errors import ERROR_CODES

BACKEND = Path(__file__).resolve().parents[2] / "backend"


def test_the_openapi_document_lists_the_codes_for_the_error_body() -> None:
    from backend.app import create_app  # the whole backend: imported by this test, not when collecting

    schema = create_app(Settings(_env_file=None)).openapi()  # type: ignore[call-arg]
    schemas = schema["components"]["schemas"]
    assert schemas["Error"]["properties"]["error"]["properties"]["code"] == {"$ref": "#/components/schemas/ErrorCode"}
    assert schemas["ErrorCode"]["enum"] == list(ERROR_CODES)
    assert len(set(ERROR_CODES)) == len(ERROR_CODES)


def test_every_code_is_raised_somewhere() -> None:
    sources = "\n".join(path.read_text(encoding="utf-8") for path in BACKEND.rglob("*.py")
                        if path != BACKEND / "errors.py")
    sources += (BACKEND / "errors.py").read_text(encoding="utf-8").split("ERROR_CODES", 1)[1]  # its own raises
    quoted = set(re.findall(r"[\"']([a-z][a-z0-9_]*)[\"']", sources))
    unused = [code for code in ERROR_CODES if code not in quoted]
    assert not unused, f"codes nothing raises: {unused}"
