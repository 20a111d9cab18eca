"""Types the study API and its services share: scope in, grounding and job status out."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from backend.store.study_jobs import JobKind, JobState

JobStatus = JobState  # the API's word for a job's state

Difficulty = Literal["beginner", "intermediate", "advanced"]


class ScopeIn(BaseModel):
    """What to study: documents and/or categories (their union); both empty = the whole vault."""

    document_ids: list[str] = Field(default_factory=list, max_length=500)
    categories: list[str] = Field(default_factory=list, max_length=500)


class ScopeOut(BaseModel):
    document_ids: list[str]
    categories: list[str]


class GenerateRequest(BaseModel):
    """Fields every generation request has. `client_token`: the same token with the same parameters
    always answers with the same job (a double click never generates twice); without one, identical
    requests share the job while it is queued or running."""

    scope: ScopeIn = Field(default_factory=ScopeIn)
    client_token: str | None = Field(None, min_length=1, max_length=100)


class SourceOut(BaseModel):
    """Where a generated item came from: "from: lecture-3.pdf, p. 12"."""

    block_id: str
    document_id: str
    filename: str
    page: int | None


class JobError(BaseModel):
    code: str
    message: str


class JobReport(BaseModel):
    """What the generation asked the model for and kept: `repaired` counts mechanical fixes (a repeated
    option removed, an index brought back to the option its explanation names), `dropped` the items the
    validator refused, by reason; `reasked`: items asked for once more because too few were usable."""

    asked: int
    kept: int
    repaired: dict[str, int]
    dropped: dict[str, int]
    reasked: int


class JobOut(BaseModel):
    job_id: str
    kind: JobKind
    status: JobStatus
    result_id: str | None
    result_url: str | None
    error: JobError | None
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    draft: str | None = None  # a lesson being written: its text so far (Markdown, may end mid-sentence)
    report: JobReport | None = None  # once the model has answered
