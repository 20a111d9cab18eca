"""`python -m backend.main`: serve Quire with uvicorn on QUIRE_HOST:QUIRE_PORT (127.0.0.1:8000 by default)."""

from __future__ import annotations

import logging
import signal
from types import FrameType

from backend.process import configure_process


def _exit_normally(signum: int, _frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def main() -> None:
    # uvicorn shuts down gracefully on SIGTERM and then re-raises the signal under the handler that was
    # there before it; with the default one the process would die there, before `end_process` closes
    # the embedded Postgres. Ctrl-C already raises KeyboardInterrupt.
    signal.signal(signal.SIGTERM, _exit_normally)
    configure_process()  # before the app's imports load FAISS (and with it OpenMP)
    import uvicorn

    from backend.app import create_app, end_process
    from backend.config import Settings

    settings = Settings.load()
    logging.basicConfig(level=settings.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if settings.log_level.upper() != "DEBUG":  # httpx logs each request to Ollama (four a chat turn) at INFO
        logging.getLogger("httpx").setLevel(logging.WARNING)
    app = create_app(settings)
    print(f"Quire is starting on http://{settings.host}:{settings.port}  (API docs: /api/docs)", flush=True)
    # No proxy headers: Quire serves the local machine directly, and nothing should be able to claim
    # another client address through X-Forwarded-For.
    code: int | str | None = 0
    try:
        uvicorn.run(app, host=settings.host, port=settings.port, log_level=settings.log_level.lower(),
                    timeout_graceful_shutdown=5, proxy_headers=False)
    except SystemExit as exc:  # SIGTERM, re-raised by uvicorn once it has shut the app down (see above)
        code = exc.code
    except KeyboardInterrupt:  # Ctrl-C, likewise
        code = 128 + signal.SIGINT
    end_process(code)


if __name__ == "__main__":
    main()
