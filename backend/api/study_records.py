"""The routes every generated study record shares, written once: `POST ""` queues its generation (202 +
job), `GET ""` lists, `GET /{<name>_id}` reads and `DELETE /{<name>_id}` deletes one.

Each study router (decks, guides, mind maps, quizzes, workshops, audio overviews) names its record's
types and service functions in a `StudyRecord` and calls `add_record_routes`; a route that takes more
(a quiz list's `workshop_id`, an overview's cache) is left out (`None`) and written in its router. The
handlers get the names they had as functions of their own (`generate_deck`, `list_decks`, …), so the
OpenAPI document (operation ids, summaries, parameters) is the same as if each router wrote them.

No `from __future__ import annotations` here: FastAPI reads the handlers' annotations at run time, and
they name this record's types, which only exist inside `add_record_routes`.
"""

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from types import GenericAlias
from typing import Annotated, Any, Generic, TypeVar
from uuid import UUID

from fastapi import APIRouter, Path, Response, status
from pydantic import BaseModel

from backend.api.deps import DatabaseDep, StudyJobsDep
from backend.store.db import Database
from backend.study.jobs import StudyJobs
from backend.study.schemas import JobOut

RequestT = TypeVar("RequestT", bound=BaseModel)
SummaryT = TypeVar("SummaryT", bound=BaseModel)
OutT = TypeVar("OutT", bound=BaseModel)


@dataclass(frozen=True)
class StudyRecord(Generic[RequestT, SummaryT, OutT]):
    """One kind of study record: its names, types and service functions."""

    name: str  # "deck": handlers generate_deck, get_deck, delete_deck; the path parameter deck_id
    plural: str  # "decks": the handler list_decks
    request: type[RequestT]
    summary: type[SummaryT]
    out: type[OutT]
    start: Callable[[StudyJobs, RequestT], JobOut]
    list: Callable[[Database], list[SummaryT]] | None  # None: the router writes its own list route
    get: Callable[[Database, str], OutT]
    delete: Callable[[Database, str], None] | None  # None: the router writes its own delete route
    generate_doc: str
    get_doc: str | None = None


def add_record_routes(router: APIRouter, record: StudyRecord[Any, Any, Any]) -> None:
    """Add the record's generate, list, get and delete routes to `router`, in that order."""
    id_name = f"{record.name}_id"
    record_id = Annotated[UUID, Path(alias=id_name)]

    def generate(body: Any, study: StudyJobsDep) -> JobOut:
        return record.start(study, body)

    generate.__annotations__["body"] = record.request
    router.add_api_route("", generate, methods=["POST"], name=f"generate_{record.name}",
                         status_code=status.HTTP_202_ACCEPTED, description=inspect.cleandoc(record.generate_doc))

    if record.list is not None:
        list_records = record.list

        def list_all(db: DatabaseDep) -> Any:
            return list_records(db)

        router.add_api_route("", list_all, methods=["GET"], name=f"list_{record.plural}",
                             response_model=GenericAlias(list, record.summary))  # list[summary]

    def get(item_id: record_id, db: DatabaseDep) -> Any:
        return record.get(db, str(item_id))

    router.add_api_route(f"/{{{id_name}}}", get, methods=["GET"], name=f"get_{record.name}",
                         response_model=record.out,
                         description=inspect.cleandoc(record.get_doc) if record.get_doc else None)

    if record.delete is not None:
        delete_record = record.delete

        def delete(item_id: record_id, db: DatabaseDep) -> Response:
            delete_record(db, str(item_id))
            return Response(status_code=status.HTTP_204_NO_CONTENT)

        router.add_api_route(f"/{{{id_name}}}", delete, methods=["DELETE"], name=f"delete_{record.name}",
                             status_code=status.HTTP_204_NO_CONTENT)
