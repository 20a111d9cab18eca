"""Study guide routes under `/api/study/guides`: generate (202 + job), list, read, delete, Markdown export."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Response

from backend.api.deps import DatabaseDep
from backend.api.study_records import StudyRecord, add_record_routes
from backend.study import exports, guides
from backend.study.guides import GuideOut, GuideRequest, GuideSummary

router = APIRouter(prefix="/guides", tags=["study: guides"])


add_record_routes(router, StudyRecord(
    name="guide", plural="guides", request=GuideRequest, summary=GuideSummary, out=GuideOut,
    start=guides.start, list=guides.list_guides, get=guides.get_guide, delete=guides.delete_guide,
    generate_doc="Queue a briefing, FAQ, glossary or timeline over the scope; poll the job, then read `result_url`.",
    get_doc="The guide; every entry with the passages it cites."))


@router.get("/{guide_id}/export", response_class=Response)
def export_guide(guide_id: UUID, db: DatabaseDep) -> Response:
    """Markdown: every statement with its citation numbers, the sources listed at the end."""
    title, body = guides.markdown(db, str(guide_id))
    return Response(body, media_type="text/markdown; charset=utf-8",
                    headers=exports.attachment(f"{exports.slug(title)}.md"))
