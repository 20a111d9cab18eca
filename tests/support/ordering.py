"""The order the suite's modules are handed to pytest-xdist's processes in.

`scripts/test.sh` runs whole modules per process (`--dist loadfile`) in the order given here
(`--no-loadscope-reorder`): xdist's own order, the modules with the most tests first, except those in
`FIRST`, which go first. The starved-CPU test is one module of one test, about 4 minutes, that mostly waits
on a server held to a few per cent of a core: by its count it came last and ran alone at the run's end.
(Handing out every module longest first was tried: the heavy ones then ran side by side, each up to twice
as long, and the run took longer.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

FIRST = ("tests/ingest/test_starved_cpu.py",)
_ROOT = Path(__file__).resolve().parents[2]


@pytest.hookimpl(trylast=True)  # after `-m`/`-k` deselected what does not run: xdist counts what runs
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    by_module: dict[Path, list[pytest.Item]] = {}
    for item in items:
        by_module.setdefault(item.path, []).append(item)
    first = {_ROOT / name for name in FIRST}
    order = sorted(by_module, key=lambda path: (path not in first, -len(by_module[path])))  # stable, as xdist's
    items[:] = [item for path in order for item in by_module[path]]
