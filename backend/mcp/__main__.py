"""`python -m backend.mcp`: Quire's MCP server over stdio, for desktop clients that spawn a process.

It starts Quire's services itself (database, DBOS, index) on the same data folder and database as the
web app, which may run at the same time: the two share Postgres, and this process takes its own DBOS
executor id so neither mistakes the other's workflows for its own. Nothing may write to stdout except
the protocol, so logging goes to stderr and the services start only once the SDK's stdio transport has
claimed stdout (it diverts stray writes to stderr).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio.to_thread

from backend.process import configure_process


def main() -> None:
    configure_process()  # before the app's imports load FAISS (and with it OpenMP)
    from backend.app import end_process, start_services, stop_services
    from backend.cluster.identity import resolve_executor_id
    from backend.config import Settings
    from backend.mcp.server import build_server
    from backend.services import Services

    settings = Settings.load()
    # Its own executor id beside the web app's (which it may share the data folder with): DBOS must not
    # take either process's workflows for the other's, and a second live claim of one id is refused.
    own_id = f"{resolve_executor_id(settings.executor_id, settings.data_dir)}-mcp-{os.getpid()}"
    settings = settings.model_copy(update={"executor_id": own_id})
    logging.basicConfig(stream=sys.stderr, level=settings.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)

    started: list[Services] = []  # the services, once the SDK's transport has claimed stdout

    def running() -> Services:
        if not started:
            raise RuntimeError("Quire's services are not started yet")
        return started[0]

    @asynccontextmanager
    async def lifespan(_server: Any) -> AsyncIterator[None]:
        started.append(await anyio.to_thread.run_sync(start_services, settings))
        try:
            yield
        finally:
            services = started.pop()
            await services.llm.aclose()
            await anyio.to_thread.run_sync(stop_services, services)

    build_server(settings, running, lifespan=lifespan).run("stdio")
    end_process(0)  # not Python's exit: see end_process


if __name__ == "__main__":
    main()
