"""What the user read is kept: while an answer streams, the text streamed so far is written into its stored
placeholder (status partial) at most `SAVE_EVERY_S` behind, in one UPDATE per interval whatever the number
of deltas. If the process is killed or the database is lost mid-answer, the session shows that text marked
incomplete, with "Continue" and "Ask again"; the final store (backend/agent/chat.py) replaces it as before.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import anyio.to_thread

from backend.store import chat as store
from backend.store.db import Database

log = logging.getLogger(__name__)

SAVE_EVERY_S = 0.5


async def keep_saving(db: Database, answer_id: str, text: Callable[[], str], every_s: float = SAVE_EVERY_S) -> None:
    """Until cancelled: every `every_s`, store `text()` if it changed since the last write that succeeded.
    A failed write (the database gone) is logged and tried again at the next interval."""
    saved = ""
    while True:
        await asyncio.sleep(every_s)
        current = text()
        if current == saved:
            continue
        try:
            if not await anyio.to_thread.run_sync(store.save_streamed, db, answer_id, current):
                return  # finished or rewound meanwhile: nothing more to keep
            saved = current
        except Exception as exc:  # noqa: BLE001 - the answer goes on; the next interval tries again
            log.warning("could not store the streamed text of answer %s yet: %s", answer_id, exc)
