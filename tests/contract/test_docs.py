"""The docs stay true: the settings' documentation is generated from the Settings class
(docs/configuration.md's tables, .env.example, the internal knobs in docs/development.md), every prompt
template the code renders exists, every template in prompts/ is used, and every relative link of the
README and docs/ leads to a file (and a heading, when it names one) that exists."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from backend.config import Settings, Tuning

ROOT = Path(__file__).resolve().parents[2]


def _env_names(model: type[Settings] | type[Tuning]) -> set[str]:
    names = set()
    for field in model.model_fields.values():
        alias = field.validation_alias
        names.update(alias.choices if alias is not None else [])  # type: ignore[union-attr]
    return names


def test_the_settings_docs_are_generated_from_the_settings_class() -> None:
    """docs/configuration.md's tables, .env.example and docs/development.md's knobs are what
    scripts/settings_table.py writes from backend/config.py (run it after changing a setting)."""
    check = subprocess.run([sys.executable, "scripts/settings_table.py", "--check"], cwd=ROOT, capture_output=True,
                           text=True, check=False, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr


def test_every_setting_is_documented_where_it_belongs() -> None:
    table = (ROOT / "docs" / "configuration.md").read_text()
    example = (ROOT / ".env.example").read_text()
    development = (ROOT / "docs" / "development.md").read_text()
    documented = set(re.findall(r"^#? ?([A-Z][A-Z0-9_]+)=", example, re.M))
    assert documented == _env_names(Settings)  # every user setting, and nothing else
    for name in _env_names(Settings):
        assert re.search(rf"^\| `{name}` \|", table, re.M), f"{name} missing from the table in docs/configuration.md"
    for name in _env_names(Tuning):
        assert f"`{name}`" in development, f"{name} missing from docs/development.md"


def test_at_most_25_settings_a_user_sets() -> None:
    assert len(_env_names(Settings)) <= 25
    assert not _env_names(Settings) & _env_names(Tuning)


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


_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def _anchors(markdown: str) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation but hyphens and underscores dropped, spaces to hyphens."""
    headings = re.findall(r"^#+ (.+)$", _FENCE.sub("", markdown), re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


def _doc_pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def test_relative_links_resolve() -> None:
    broken = []
    for page in _doc_pages():
        text = _FENCE.sub("", page.read_text())
        for match in _LINK.finditer(text):
            target = match.group(1) or match.group(2)
            if re.match(r"^[a-z]+:", target):
                continue  # http(s), mailto: not ours to check
            path, _, anchor = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            if not file.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and file.suffix == ".md" and anchor not in _anchors(file.read_text()):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)
