"""Mind map routes under `/api/study/mindmaps`: generate (202 + job), list, get, delete, save or reset
the layout and node positions, record an export, and the outline as Markdown."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Response, status

from backend.api.deps import ActivityDep, DatabaseDep
from backend.api.study_records import StudyRecord, add_record_routes
from backend.study import exports, mindmaps
from backend.study.mindmaps import ExportIn, ExportOut, LayoutIn, MindmapOut, MindmapRequest, MindmapSummary

router = APIRouter(prefix="/mindmaps", tags=["study: mind maps"])


add_record_routes(router, StudyRecord(
    name="mindmap", plural="mindmaps", request=MindmapRequest, summary=MindmapSummary, out=MindmapOut,
    start=mindmaps.start, list=mindmaps.list_mindmaps, get=mindmaps.get_mindmap, delete=mindmaps.delete_mindmap,
    generate_doc="Queue a mind map generation; poll `GET /api/study/jobs/{job_id}`, then read `result_url`."))


@router.put("/{mindmap_id}/layout")
def save_layout(mindmap_id: UUID, body: LayoutIn, db: DatabaseDep) -> MindmapOut:
    """Save the layout (LR|TB) and node positions (`{node_id: {x, y}}`; unknown node ids → 422)."""
    return mindmaps.save_layout(db, str(mindmap_id), body)


@router.delete("/{mindmap_id}/layout")
def reset_layout(mindmap_id: UUID, db: DatabaseDep) -> MindmapOut:
    """Back to the automatic left-to-right layout with no saved positions."""
    return mindmaps.reset_layout(db, str(mindmap_id))


@router.post("/{mindmap_id}/exports", status_code=status.HTTP_201_CREATED)
def record_export(mindmap_id: UUID, body: ExportIn, db: DatabaseDep, activity: ActivityDep) -> ExportOut:
    """Record an export the UI made (png|pdf|markdown); it counts as study activity."""
    return mindmaps.record_export(db, activity, str(mindmap_id), body.format)


@router.get("/{mindmap_id}/markdown", response_class=Response)
def mindmap_markdown(mindmap_id: UUID, db: DatabaseDep) -> Response:
    filename, body = exports.mindmap_markdown(db, str(mindmap_id))
    return Response(body, media_type="text/markdown; charset=utf-8", headers=exports.attachment(filename))
