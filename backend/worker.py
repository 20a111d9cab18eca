"""`python -m backend.worker`: a Quire process without HTTP that joins the shared work.

It starts what the server starts — database, index, model client, DBOS with the ingest, embedding and
study queues, the heartbeat — and serves no requests: each queued ingestion, embedding batch or study
job may run on any process of the database, so adding workers adds throughput. Stop it with Ctrl-C or
SIGTERM; work it had in flight is taken over by a live process after QUIRE_TAKEOVER_AFTER_S, or resumed
by this worker itself when it starts again.
"""

from __future__ import annotations

import logging
import signal
import threading
from types import FrameType

from backend.process import configure_process


def main() -> None:
    configure_process()  # before the app's imports load FAISS (and with it OpenMP)
    from backend.app import end_process, start_services, stop_services
    from backend.config import Settings

    settings = Settings.load()
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.log_level.upper() != "DEBUG":
        logging.getLogger("httpx").setLevel(logging.WARNING)
    stop = threading.Event()

    def request_stop(_signum: int, _frame: FrameType | None) -> None:
        stop.set()

    signal.signal(signal.SIGTERM, request_stop)
    signal.signal(signal.SIGINT, request_stop)
    services = start_services(settings, mode="worker")
    print(f"Quire worker {services.executor_id} is running (Ctrl-C to stop)", flush=True)
    try:
        stop.wait()
    finally:
        stop_services(services)
    end_process(0)  # not Python's exit: see end_process


if __name__ == "__main__":
    main()
