"""Writes the settings documentation from the Settings class (backend/config.py), so it cannot drift:
docs/configuration.md's tables (between its `settings` markers), `.env.example`, and the internal knobs'
table in docs/development.md. `--check` writes nothing and fails when a file differs (tests/contract/test_docs.py
runs the same comparison).

    .venv/bin/python scripts/settings_table.py          # rewrite the three
    .venv/bin/python scripts/settings_table.py --check  # are they current?
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from pathlib import Path
from typing import Any

from pydantic.fields import FieldInfo

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from backend.process import configure_process

configure_process()  # as every script does before importing the backend (tests/contract/test_process_settings.py)

from backend.config import ENV_FILE_VARIABLE, GROUPS, REPO_ROOT, Settings, Tuning

CONFIGURATION = ROOT / "docs" / "configuration.md"
ENV_EXAMPLE = ROOT / ".env.example"
DEVELOPMENT = ROOT / "docs" / "development.md"
START, END = "<!-- settings:start (scripts/settings_table.py) -->", "<!-- settings:end -->"


def _extra(field: FieldInfo) -> dict[str, Any]:
    extra = field.json_schema_extra
    assert isinstance(extra, dict), field
    return extra


def _value(field: FieldInfo) -> str | None:
    """The default as an env file writes it; None when unset."""
    default = field.default
    if default is None or default == []:
        return None
    if isinstance(default, bool):
        return str(default).lower()
    if isinstance(default, list):
        return ",".join(default)
    if isinstance(default, Path):
        return str(default.relative_to(REPO_ROOT)) if default.is_absolute() else str(default)
    if isinstance(default, float) and default.is_integer():
        return str(int(default))
    return str(default)


def _shown(field: FieldInfo) -> str:
    shown = _extra(field).get("shown")
    if shown:
        return str(shown) if "`" in str(shown) else shown
    value = _value(field)
    return f"`{value}`" if value is not None else "unset"


def _rows(model: type[Settings] | type[Tuning], group: str) -> list[tuple[str, FieldInfo]]:
    return [(str(_extra(field)["env"]), field) for field in model.model_fields.values()
            if field.json_schema_extra and _extra(field)["group"] == group]


def _table(rows: list[tuple[str, FieldInfo]]) -> list[str]:
    lines = ["| Variable | Default | Meaning |", "|---|---|---|"]
    lines += [f"| `{env}` | {_shown(field)} | {field.description} |" for env, field in rows]
    return lines


def configuration_section() -> str:
    lines = [START, "", f"Environment variables, or a `.env` file (`{ENV_FILE_VARIABLE}` names another; "
             "`.env.example` lists them all with their defaults):", ""]
    for group in GROUPS:
        lines += [f"**{group}**", "", *_table(_rows(Settings, group)), ""]
    return "\n".join([*lines, END])


def env_example() -> str:
    lines = ["# Quire configuration. Copy to .env (or export the variables) and change what you need.",
             "# Every value shown is the default; a commented-out variable is unset by default.",
             "# Generated from backend/config.py by scripts/settings_table.py: edit the Settings class, not this file."]
    for group in GROUPS:
        lines += ["", f"# -- {group}"]
        for env, field in _rows(Settings, group):
            plain = str(field.description).replace("`", "")
            lines += textwrap.wrap(plain, 110, initial_indent="# ", subsequent_indent="# ")
            value = _value(field)
            lines.append(f"{env}={_quoted(value)}" if value is not None else f"# {env}=")
    return "\n".join(lines) + "\n"


def _quoted(value: str) -> str:
    return f'"{value}"' if " " in value else value


def tuning_section() -> str:
    rows = _rows(Tuning, "internal")
    return "\n".join([START, "", *_table(rows), "", END])


def _replace_between(text: str, section: str) -> str:
    start, end = text.index(START), text.index(END) + len(END)
    return text[:start] + section + text[end:]


def expected() -> dict[Path, str]:
    return {CONFIGURATION: _replace_between(CONFIGURATION.read_text(encoding="utf-8"), configuration_section()),
            ENV_EXAMPLE: env_example(),
            DEVELOPMENT: _replace_between(DEVELOPMENT.read_text(encoding="utf-8"), tuning_section())}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if a file is not current; write nothing")
    args = parser.parse_args()
    stale = []
    for path, text in expected().items():
        if path.read_text(encoding="utf-8") != text:
            stale.append(path.relative_to(ROOT))
            if not args.check:
                path.write_text(text, encoding="utf-8")
    if args.check and stale:
        print(f"out of date with backend/config.py: {', '.join(map(str, stale))} (run scripts/settings_table.py)")
        return 1
    print("up to date" if not stale else f"wrote {', '.join(map(str, stale))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
