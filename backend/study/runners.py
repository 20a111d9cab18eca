"""Every study generator, imported so each registers its runner with `jobs` before DBOS launches.

`durable.WORKFLOW_MODULES` names this module: DBOS may resume an interrupted generation job right at
launch, and the job's step must then find the generator for its kind.
"""

from __future__ import annotations

from backend.study import flashcards, fsrs_tuning, guides, jobs, lessons, mindmaps, mistakes, quizzes, workshops

__all__ = ["flashcards", "fsrs_tuning", "guides", "jobs", "lessons", "mindmaps", "mistakes", "quizzes", "workshops"]
