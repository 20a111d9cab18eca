"""Mind map routes under `/api/study/mindmaps`: generate (202 + job), list, get, delete, save or reset
the layout and node positions, record an export, and the outline as Markdown."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Response, status

from backend.api.deps import ContextDep
from backend.study import exports, mindmaps
from backend.study.mindmaps import ExportIn, ExportOut, LayoutIn, MindmapOut, MindmapRequest, MindmapSummary
from backend.study.schemas import JobOut

router = APIRouter(prefix="/mindmaps", tags=["study: mind maps"])


@router.post("", status_code=status.HTTP_202_ACCEPTED)
def generate_mindmap(body: MindmapRequest, ctx: ContextDep) -> JobOut:
    """Queue a mind map generation; poll `GET /api/study/jobs/{job_id}`, then read `result_url`."""
    return mindmaps.start(ctx, body)


@router.get("")
def list_mindmaps(ctx: ContextDep) -> list[MindmapSummary]:
    return mindmaps.list_mindmaps(ctx)


@router.get("/{mindmap_id}")
def get_mindmap(mindmap_id: UUID, ctx: ContextDep) -> MindmapOut:
    return mindmaps.get_mindmap(ctx, str(mindmap_id))


@router.delete("/{mindmap_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_mindmap(mindmap_id: UUID, ctx: ContextDep) -> Response:
    mindmaps.delete_mindmap(ctx, str(mindmap_id))
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.put("/{mindmap_id}/layout")
def save_layout(mindmap_id: UUID, body: LayoutIn, ctx: ContextDep) -> MindmapOut:
    """Save the layout (LR|TB) and node positions (`{node_id: {x, y}}`; unknown node ids → 422)."""
    return mindmaps.save_layout(ctx, str(mindmap_id), body)


@router.delete("/{mindmap_id}/layout")
def reset_layout(mindmap_id: UUID, ctx: ContextDep) -> MindmapOut:
    """Back to the automatic left-to-right layout with no saved positions."""
    return mindmaps.reset_layout(ctx, str(mindmap_id))


@router.post("/{mindmap_id}/exports", status_code=status.HTTP_201_CREATED)
def record_export(mindmap_id: UUID, body: ExportIn, ctx: ContextDep) -> ExportOut:
    """Record an export the UI made (png|pdf|markdown); it counts as study activity."""
    return mindmaps.record_export(ctx, str(mindmap_id), body.format)


@router.get("/{mindmap_id}/markdown", response_class=Response)
def mindmap_markdown(mindmap_id: UUID, ctx: ContextDep) -> Response:
    filename, body = exports.mindmap_markdown(ctx, str(mindmap_id))
    return Response(body, media_type="text/markdown; charset=utf-8", headers=exports.attachment(filename))
