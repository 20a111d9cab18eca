"""The MCP write tools, registered only when QUIRE_MCP_ALLOW_WRITES is on: add a document to the vault
(through the same validation and durable ingestion as an upload) and queue a quiz generation."""

from __future__ import annotations

import base64
import binascii
import hashlib
from typing import Literal

from backend.errors import QuireError
from backend.ingest import files
from backend.ingest.uploads import Candidate, UploadOutcome, Uploads, clean_category
from backend.study import quizzes
from backend.study.jobs import StudyJobs
from backend.study.quizzes import QuizRequest
from backend.study.schemas import Difficulty, JobOut, ScopeIn

MAX_UPLOAD_BYTES = 5 * 1024 * 1024  # an MCP message carries the file inline; larger files go through the web UI


def upload_document(uploads: Uploads, filename: str, text: str | None, content_base64: str | None,
                    category: str | None) -> UploadOutcome:
    if (text is None) == (content_base64 is None):
        raise QuireError("invalid_content", "Give exactly one of `text` or `content_base64`.", 422)
    if text is not None:
        data = text.encode()
    else:
        try:
            data = base64.b64decode(content_base64 or "", validate=True)
        except (binascii.Error, ValueError) as exc:
            raise QuireError("invalid_content", "content_base64 is not valid base64.", 422) from exc
    if not data:
        raise QuireError("empty_file", "The file is empty.", 422)
    if len(data) > MAX_UPLOAD_BYTES:
        raise QuireError("too_large", f"Files sent over MCP are at most {MAX_UPLOAD_BYTES // (1024 * 1024)} MB; "
                         "upload larger ones in Quire's web app.", 413)
    path = files.new_pending_path(uploads.docs_dir)
    path.write_bytes(data)
    try:
        candidate = Candidate(filename, path, len(data), hashlib.sha256(data).hexdigest())
        outcome = uploads.accept([candidate], clean_category(category))
    finally:
        path.unlink(missing_ok=True)  # accepted files were moved away already; this removes only a leftover
    return outcome


def generate_quiz(study: StudyJobs, document_ids: list[str], categories: list[str], count: Literal[5, 10, 20],
                  difficulty: Difficulty) -> JobOut:
    request = QuizRequest(scope=ScopeIn(document_ids=document_ids, categories=categories), count=count,
                          difficulty=difficulty, client_token=None)
    return quizzes.start(study, request)
