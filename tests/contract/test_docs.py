"""The docs stay true: every setting is documented in README.md and .env.example, every prompt template
the code renders exists, and every template in prompts/ is used."""

from __future__ import annotations

import re
from pathlib import Path

from backend.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def _env_names() -> set[str]:
    names = set()
    for field in Settings.model_fields.values():
        alias = field.validation_alias
        names.update(alias.choices if alias is not None else [])  # type: ignore[union-attr]
    return names | {"QUIRE_ENV_FILE"}


def test_every_setting_is_documented() -> None:
    readme = (ROOT / "README.md").read_text()
    example = (ROOT / ".env.example").read_text()
    for name in sorted(_env_names()):
        assert f"`{name}`" in readme, f"{name} missing from README.md"
        assert re.search(rf"^#? ?{name}=", example, re.M), f"{name} missing from .env.example"


def test_documented_settings_exist() -> None:
    example = (ROOT / ".env.example").read_text()
    documented = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", example, re.M))
    assert documented <= _env_names()


def _rendered_prompt_names() -> set[str]:
    # prompts.render("name", ...), prompts.template("name") and the study generators'
    # fitted_prompt(llm, prompts, "name", ...)
    pattern = re.compile(r"""(?:(?:render|template)\(\s*|fitted_prompt\(\s*[\w.]+,\s*[\w.]+,\s*)["']([a-z0-9_]+)["']""")
    names = set()
    for path in (ROOT / "backend").rglob("*.py"):
        names.update(pattern.findall(path.read_text()))
    return names


def test_prompt_templates_exist_and_are_used() -> None:
    on_disk = {p.stem for p in (ROOT / "prompts").glob("*.md")}
    used = _rendered_prompt_names()
    assert used, "no prompt rendering found"
    assert used <= on_disk, f"missing templates: {used - on_disk}"
    assert on_disk <= used, f"unused templates: {on_disk - used}"
