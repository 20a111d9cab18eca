"""The MCP SDK's own client, connected to a real Quire process over streamable HTTP or stdio."""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, TextContent

from tests.support.server import REPO_ROOT


@asynccontextmanager
async def http_session(url: str, headers: dict[str, str] | None = None) -> AsyncIterator[ClientSession]:
    async with (httpx2.AsyncClient(headers=headers or {}, timeout=60) as http,
                streamable_http_client(f"{url}/mcp", http_client=http) as (read, write),
                ClientSession(read, write) as session):
        await session.initialize()
        yield session


@asynccontextmanager
async def stdio_session(env: dict[str, str]) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=sys.executable, args=["-m", "backend.mcp"], env=env, cwd=REPO_ROOT)
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def text_of(result: CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, TextContent))


def data(result: CallToolResult) -> Any:
    """A successful call's structured result (lists come wrapped as {"result": [...]})."""
    assert not result.is_error, text_of(result)
    assert result.structured_content is not None
    content = result.structured_content
    return content["result"] if set(content) == {"result"} else content


def error(result: CallToolResult) -> dict[str, Any]:
    """A failed call's error body: the API's {"error": {code, message, details?}} after the SDK's prefix."""
    assert result.is_error, text_of(result)
    text = text_of(result)
    return json.loads(text[text.index("{"):])["error"]
