"""Typed FastAPI dependencies: the app's services, taken from `app.state.context`.

They are `async def` although they never await: FastAPI runs a plain `def` dependency in the thread
pool, and three thread hops per request for an attribute lookup were a measurable share of a request.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from backend.config import Settings
from backend.context import AppContext
from backend.store.db import Database


async def get_app_context(request: Request) -> AppContext:
    context: AppContext = request.app.state.context
    return context


async def _settings(context: Annotated[AppContext, Depends(get_app_context)]) -> Settings:
    return context.settings


async def _database(context: Annotated[AppContext, Depends(get_app_context)]) -> Database:
    return context.db


ContextDep = Annotated[AppContext, Depends(get_app_context)]
SettingsDep = Annotated[Settings, Depends(_settings)]
DatabaseDep = Annotated[Database, Depends(_database)]
