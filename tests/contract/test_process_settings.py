"""Process-wide settings are made once at each entry point (backend/process.py), never as a side effect of
importing a library module: importing the retrieval code (which loads FAISS and OpenMP) leaves os.environ
alone, and the entry point's configuration keeps an operator's explicit value."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

_SNAPSHOT = """
import json, os, sys
before = dict(os.environ)
for name in sys.argv[1:]:
    __import__(name)
after = dict(os.environ)
print(json.dumps({k: [before.get(k), after.get(k)] for k in before.keys() | after.keys()
                  if before.get(k) != after.get(k)}))
"""


def _changed_by_importing(*modules: str, **env: str) -> dict[str, list[str | None]]:
    environment = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"} | env
    result = subprocess.run([sys.executable, "-c", _SNAPSHOT, *modules], cwd=REPO_ROOT, env=environment,
                            capture_output=True, text=True, check=True, timeout=120)
    return json.loads(result.stdout)


def test_importing_the_dense_index_does_not_change_the_environment() -> None:
    assert _changed_by_importing("backend.retrieval.dense", "backend.retrieval.service") == {}


def test_the_entry_point_configuration_sets_the_wait_policy_and_keeps_the_operators_choice() -> None:
    script = "from backend.process import configure_process; configure_process(); import os; " \
             "print(os.environ['OMP_WAIT_POLICY'])"
    base = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    for env, expected in ((base, "PASSIVE"), (base | {"OMP_WAIT_POLICY": "ACTIVE"}, "ACTIVE")):
        out = subprocess.run([sys.executable, "-c", script], cwd=REPO_ROOT, env=env, capture_output=True,
                             text=True, check=True, timeout=60)
        assert out.stdout.strip() == expected


def test_the_server_entry_point_configures_the_process_before_it_imports_the_app() -> None:
    # backend.main must stay importable without loading FAISS: its configuration runs inside main().
    changed = _changed_by_importing("backend.main")
    assert changed == {}
    loaded = subprocess.run([sys.executable, "-c", "import sys, backend.main; print('faiss' in sys.modules)"],
                            cwd=REPO_ROOT, capture_output=True, text=True, check=True, timeout=60)
    assert loaded.stdout.strip() == "False"


def test_every_script_entry_point_configures_the_process_before_importing_the_backend() -> None:
    # A script that imports backend modules first would load FAISS (and OpenMP) with the default policy.
    import ast

    for script in sorted((REPO_ROOT / "scripts").glob("*.py")):
        tree = ast.parse(script.read_text(encoding="utf-8"))
        is_entry_point = any(isinstance(node, ast.If) and "__main__" in ast.unparse(node.test) for node in tree.body)
        if not is_entry_point:
            continue
        calls = [i for i, node in enumerate(tree.body) if isinstance(node, ast.Expr)
                 and ast.unparse(node.value) == "configure_process()"]
        assert calls, f"{script.name} does not call configure_process()"
        backend_imports = [i for i, node in enumerate(tree.body) if isinstance(node, ast.ImportFrom)
                           and (node.module or "").startswith(("backend.", "tests.", "bench_"))
                           and node.module != "backend.process"]
        assert all(i > calls[0] for i in backend_imports), f"{script.name} imports before configure_process()"
