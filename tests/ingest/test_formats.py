"""The format registry (backend/ingest/formats/) is the one list of what Quire reads: every kind of the API's
vocabulary has exactly one format module, no extension belongs to two formats, and the web app's
frontend/src/lib/formats.ts names the same viewer, place kind, length unit and extensions for each kind —
so adding a format is one backend module, its kind's name and one front-end entry, and forgetting one of
them fails here."""

from __future__ import annotations

import json
import re
from typing import get_args

from backend.ingest.formats import _MODULES, EXTENSIONS, FORMATS, format_of
from backend.store.kinds import DocKind
from tests.support.server import REPO_ROOT

_ENTRY = re.compile(r'^\s*(\w+): \{\s*viewer: "(\w+)", place: "(\w+)", unit: "(\w+)",\s*extensions: (\[[^\]]*\])',
                    re.MULTILINE)


def _web_app_formats() -> dict[str, tuple[str, str, str, tuple[str, ...]]]:
    source = (REPO_ROOT / "frontend" / "src" / "lib" / "formats.ts").read_text()
    table = source[source.index("const FORMATS"):source.index("};", source.index("const FORMATS"))]
    return {kind: (viewer, place, unit, tuple(json.loads(extensions)))
            for kind, viewer, place, unit, extensions in _ENTRY.findall(table)}


def test_every_kind_is_one_format_module() -> None:
    assert sorted(FORMATS) == sorted(get_args(DocKind))
    assert [module.FORMAT.kind for module in _MODULES] == list(FORMATS)  # one module, one format
    for kind in get_args(DocKind):
        assert format_of(kind).kind == kind


def test_no_extension_belongs_to_two_formats() -> None:
    declared = [ext for fmt in FORMATS.values() for ext in fmt.extensions]
    assert len(declared) == len(set(declared)) == len(EXTENSIONS)


def test_the_web_app_knows_every_format_as_the_registry_declares_it() -> None:
    web = _web_app_formats()
    assert sorted(web) == sorted(FORMATS), "frontend/src/lib/formats.ts lists other kinds than the registry"
    for kind, fmt in FORMATS.items():
        assert web[kind] == (fmt.viewer, fmt.place, fmt.unit, fmt.extensions), kind
