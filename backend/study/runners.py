"""Every study generator by the job kind it makes: `StudyJobs` runs a job's kind with the one named here."""

from __future__ import annotations

from collections.abc import Mapping

from backend.store.study_jobs import JobKind
from backend.study import (
    audio_overviews,
    flashcards,
    fsrs_tuning,
    guides,
    lessons,
    mindmaps,
    mistakes,
    quizzes,
    workshops,
)
from backend.study.jobs import Runner

RUNNERS: Mapping[JobKind, Runner] = {
    "quiz": quizzes.run,
    "deck": flashcards.run,
    "workshop": workshops.run,
    "mindmap": mindmaps.run,
    "lesson": lessons.write,
    "recap": lessons.write_recap,
    "weak_spots": mistakes.run,
    "guide": guides.run,
    "optimize": fsrs_tuning.run,
    "audio_overview": audio_overviews.run,
}
