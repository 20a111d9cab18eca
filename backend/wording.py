"""Counted nouns in messages people read: "1 passage", "3 passages" (never "1 passages")."""

from __future__ import annotations


def plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count:,} {one if count == 1 else (many or one + 's')}"
