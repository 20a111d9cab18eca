"""Prompt templates: Markdown files in `prompts/`, overridable by same-named files in `prompts/custom/`.

A template names its placeholders as `{{name}}`. Files are re-read when their modification time changes,
so an override takes effect on the next request without a restart.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from pathlib import Path

_PLACEHOLDER = re.compile(r"\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}")


class PromptError(Exception):
    pass


@dataclass(frozen=True)
class _Cached:
    path: Path
    mtime_ns: int
    text: str


class PromptLibrary:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self._cache: dict[Path, _Cached] = {}
        self._lock = threading.Lock()

    def path_for(self, name: str) -> Path:
        custom = self.directory / "custom" / f"{name}.md"
        return custom if custom.is_file() else self.directory / f"{name}.md"

    def template(self, name: str) -> str:
        path = self.path_for(name)
        try:
            mtime = path.stat().st_mtime_ns
        except FileNotFoundError as exc:
            raise PromptError(f"prompt template {name!r} not found in {self.directory}") from exc
        with self._lock:
            cached = self._cache.get(path)
            if cached is None or cached.mtime_ns != mtime:
                cached = _Cached(path, mtime, path.read_text(encoding="utf-8"))
                self._cache[path] = cached
            return cached.text

    def render(self, name: str, **values: object) -> str:
        """Fill `{{placeholders}}`; a placeholder the caller did not supply is an error, not a blank."""

        def fill(match: re.Match[str]) -> str:
            key = match.group(1)
            if key not in values:
                raise PromptError(f"prompt {name!r} uses {{{{{key}}}}} which was not supplied")
            return str(values[key])

        return _PLACEHOLDER.sub(fill, self.template(name)).strip()

    def available(self) -> list[str]:
        return sorted(p.stem for p in self.directory.glob("*.md"))
