"""Agent tools as typed Python functions: the JSON schema the model sees comes from each function's
signature and Google-style docstring, and calling a tool coerces its arguments and reports failures.

A tool returns a `ToolOutput`: a short summary for the UI, the sources it found, and a `render`
function that writes the text for the model once the sources have their citation numbers — or, for a
search, `ranked`, the passages best first, which the memory window may trim from the bottom.

No tool has a time limit: on a busy machine a search or a document listing may take long, and a limit
would turn "slow" into "failed", the model answering without the passages it asked for. What bounds a
tool is its work: a search reads an index of known size, a listing at most MAX_LISTED_DOCUMENTS rows, the
calculator refuses oversized numbers before computing them, a model call is watched by the model client
for a silent server. The user's Stop cancels a tool like the rest of the turn.
"""

from __future__ import annotations

import inspect
import logging
import re
import typing
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import anyio.to_thread

from backend.agent.citations import Source
from backend.agent.quoting import RankedPassages

log = logging.getLogger(__name__)

_JSON_TYPES: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}
_ARGS_HEADER = re.compile(r"^\s*Args:\s*$")
_ARG_LINE = re.compile(r"^\s+(\w+)(?:\s*\([^)]*\))?:\s*(.*)$")


class ToolFailure(Exception):
    """A failure the model should hear about in words (unknown document, bad expression, ...)."""


@dataclass(frozen=True)
class ToolOutput:
    summary: str
    render: Callable[[Sequence[int]], str]
    sources: tuple[Source, ...] = ()
    ranked: Callable[[Sequence[int]], RankedPassages] | None = None  # passages, trimmable to fit

    @classmethod
    def plain(cls, text: str, summary: str) -> ToolOutput:
        return cls(summary=summary, render=lambda _numbers: text)


ToolFunction = Callable[..., ToolOutput | Awaitable[ToolOutput]]


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict[str, Any]
    fn: ToolFunction
    types: dict[str, type] = field(default_factory=dict)

    @classmethod
    def from_function(cls, fn: ToolFunction) -> Tool:
        description, arg_docs = _parse_docstring(inspect.getdoc(fn) or "")
        hints = typing.get_type_hints(fn)
        properties: dict[str, Any] = {}
        required: list[str] = []
        types: dict[str, type] = {}
        for name, param in inspect.signature(fn).parameters.items():
            kind = hints[name]
            types[name] = kind
            properties[name] = {"type": _JSON_TYPES[kind], "description": arg_docs.get(name, "")}
            if param.default is inspect.Parameter.empty:
                required.append(name)
        parameters = {"type": "object", "properties": properties, "required": required}
        return cls(fn.__name__, description, parameters, fn, types)

    def schema(self) -> dict[str, Any]:
        """The tool as Ollama's `tools` parameter expects it."""
        return {"type": "function",
                "function": {"name": self.name, "description": self.description, "parameters": self.parameters}}

    async def run(self, args: Mapping[str, Any]) -> ToolOutput:
        """Call the tool; a failure of any kind comes back as a ToolOutput the model can read."""
        try:
            kwargs = self._coerce(args)
            if inspect.iscoroutinefunction(self.fn):
                return await cast(Awaitable[ToolOutput], self.fn(**kwargs))
            # A sync tool runs in a worker thread; a cancelled turn abandons it instead of waiting for it.
            sync = cast(Callable[..., ToolOutput], self.fn)
            return await anyio.to_thread.run_sync(lambda: sync(**kwargs), abandon_on_cancel=True)
        except ToolFailure as exc:
            return ToolOutput.plain(f"Error: {exc}", f"failed: {exc}")
        except Exception:
            log.exception("tool %s failed with arguments %r", self.name, dict(args))
            return ToolOutput.plain(f"Error: {self.name} failed unexpectedly.", "failed")

    def _coerce(self, args: Mapping[str, Any]) -> dict[str, Any]:
        """Arguments by name, converted to the declared types; unknown extra arguments are ignored."""
        kwargs: dict[str, Any] = {}
        for name, kind in self.types.items():
            if name not in args or args[name] is None:
                if name in self.parameters["required"]:
                    raise ToolFailure(f"missing argument {name!r}")
                continue
            kwargs[name] = _convert(args[name], kind, name)
        return kwargs


def _convert(value: Any, kind: type, name: str) -> Any:
    if kind is str:
        return value if isinstance(value, str) else str(value)
    try:
        if kind is bool:
            return value if isinstance(value, bool) else str(value).strip().lower() in {"true", "1", "yes"}
        return kind(value)
    except (TypeError, ValueError) as exc:
        raise ToolFailure(f"argument {name!r} must be a {_JSON_TYPES[kind]}") from exc


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """The description (everything before `Args:`) and each argument's description."""
    lines = doc.splitlines()
    header = next((i for i, line in enumerate(lines) if _ARGS_HEADER.match(line)), len(lines))
    description = " ".join(" ".join(lines[:header]).split())
    args: dict[str, str] = {}
    current: str | None = None
    for line in lines[header + 1 :]:
        match = _ARG_LINE.match(line)
        if match and len(line) - len(line.lstrip()) <= 4:
            current = match.group(1)
            args[current] = match.group(2).strip()
        elif current and line.strip():
            args[current] = f"{args[current]} {line.strip()}"
        elif not line.strip():
            current = None
    return description, args


class ToolRegistry:
    def __init__(self, tools: Sequence[Tool]) -> None:
        self._tools = {tool.name: tool for tool in tools}

    def schemas(self) -> list[dict[str, Any]]:
        return [tool.schema() for tool in self._tools.values()]

    def names(self) -> list[str]:
        return list(self._tools)

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)
