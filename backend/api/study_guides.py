"""Study guide routes under `/api/study/guides`: generate (202 + job), list, read, delete, Markdown export."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Response, status

from backend.api.deps import DatabaseDep, StudyJobsDep
from backend.study import exports, guides
from backend.study.guides import GuideOut, GuideRequest, GuideSummary
from backend.study.schemas import JobOut

router = APIRouter(prefix="/guides", tags=["study: guides"])


@router.post("", status_code=status.HTTP_202_ACCEPTED)
def generate_guide(body: GuideRequest, study: StudyJobsDep) -> JobOut:
    """Queue a briefing, FAQ, glossary or timeline over the scope; poll the job, then read `result_url`."""
    return guides.start(study, body)


@router.get("")
def list_guides(db: DatabaseDep) -> list[GuideSummary]:
    return guides.list_guides(db)


@router.get("/{guide_id}")
def get_guide(guide_id: UUID, db: DatabaseDep) -> GuideOut:
    """The guide; every entry with the passages it cites."""
    return guides.get_guide(db, str(guide_id))


@router.delete("/{guide_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_guide(guide_id: UUID, db: DatabaseDep) -> Response:
    guides.delete_guide(db, str(guide_id))
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/{guide_id}/export", response_class=Response)
def export_guide(guide_id: UUID, db: DatabaseDep) -> Response:
    """Markdown: every statement with its citation numbers, the sources listed at the end."""
    title, body = guides.markdown(db, str(guide_id))
    return Response(body, media_type="text/markdown; charset=utf-8",
                    headers=exports.attachment(f"{exports.slug(title)}.md"))
