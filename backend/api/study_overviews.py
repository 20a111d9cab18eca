"""Audio overview routes under `/api/study/overviews`: generate (202 + job), list, read (the script with
each line's times and citations), delete, and the audio (Ogg/Opus, range requests; `?download=1` saves it)."""

from __future__ import annotations

from uuid import UUID

from fastapi import APIRouter, Response, status
from fastapi.responses import FileResponse

from backend.api.deps import DatabaseDep, SettingsDep
from backend.api.study_records import StudyRecord, add_record_routes
from backend.study import audio_overviews, exports
from backend.study.audio_overviews import OverviewOut, OverviewRequest, OverviewSummary

router = APIRouter(prefix="/overviews", tags=["study: audio overviews"])


add_record_routes(router, StudyRecord(
    name="overview", plural="overviews", request=OverviewRequest, summary=OverviewSummary, out=OverviewOut,
    start=audio_overviews.start, list=audio_overviews.list_overviews, get=audio_overviews.get_overview,
    delete=None,  # below: it stops the speaking and removes the audio from the cache
    generate_doc="""Queue an audio overview of the scope: the job writes the script; the overview is then spoken
    (`state` synthesizing → ready). 503 `voice_unavailable` when no voice is installed."""))


@router.delete("/{overview_id}", status_code=status.HTTP_204_NO_CONTENT)
def delete_overview(overview_id: UUID, db: DatabaseDep, settings: SettingsDep) -> Response:
    """Delete it (one still being spoken stops after the line in progress)."""
    audio_overviews.delete_overview(db, settings.overview_cache_dir, str(overview_id))
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get("/{overview_id}/audio", response_class=FileResponse)
def overview_audio(overview_id: UUID, db: DatabaseDep, settings: SettingsDep, download: bool = False) -> FileResponse:
    """The spoken overview (Ogg/Opus), with range requests; 409 `not_ready` until it is spoken."""
    title, path = audio_overviews.audio_file(db, settings.overview_cache_dir, str(overview_id))
    return FileResponse(path, media_type="audio/ogg", filename=f"{exports.slug(title)}.ogg",
                        content_disposition_type="attachment" if download else "inline",
                        headers={"Cache-Control": "private, no-cache"})
