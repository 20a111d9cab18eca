"""No private internals of third-party libraries in backend/ or scripts/: a pinned library may change
them in any release and break Quire silently (this is how `backend/llm/client.py` once reached into the
`ollama` client for 1–3 ms a chat turn).

The scan reads each module with `ast` and reports `x._name` (not dunders) where `x` resolves to a
third-party module or object: a name imported from a third-party package, an attribute chain or call
rooted at one, a variable, parameter or `self` attribute assigned or annotated with one, a property or
method whose return annotation is one, and `self._name` / `super()._name` inside a subclass of a
third-party class when our class does not define `_name` itself. Also reported: importing a private
module or name of a third-party package (`from ollama._client import ...`) and
`super(ThirdPartyClass, self)`, which skips that class's own initialiser or methods.
`self._x` of our own classes and private names of our own modules are fine.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("backend", "scripts")


# A named tuple's documented API is spelt with a leading underscore (so as not to clash with field names).
_NAMEDTUPLE_API = {"_asdict", "_replace", "_fields", "_make", "_field_defaults"}


def _is_private(name: str) -> bool:
    return (name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
            and name not in _NAMEDTUPLE_API)


def _is_third_party(module: str) -> bool:
    top = module.split(".", maxsplit=1)[0]
    if not top or top in sys.stdlib_module_names or top == "__future__":
        return False
    ours = (REPO_ROOT / top).is_dir() or (REPO_ROOT / f"{top}.py").exists()
    script_module = any((REPO_ROOT / folder / f"{top}.py").exists() for folder in SCANNED)
    return not (ours or script_module)


@dataclass
class _Scope:
    """Names known to hold third-party modules/objects: module level, then per class and function."""

    names: set[str] = field(default_factory=set)
    self_attributes: set[str] = field(default_factory=set)  # `self.x` that holds a third-party object


class _Scanner(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.found: list[str] = []
        self.module_names: set[str] = set()
        self.local_names: list[set[str]] = []
        self.classes: list[tuple[bool, set[str], set[str]]] = []  # (third-party base?, own names, tp attrs)

    # -- what resolves to a third-party object ----------------------------------------------------
    def _names(self) -> set[str]:
        merged = set(self.module_names)
        for scope in self.local_names:
            merged |= scope
        return merged

    def _third_party(self, node: ast.expr | None) -> bool:  # noqa: PLR0911 - one case per node kind
        if node is None:
            return False
        if isinstance(node, ast.Name):
            return node.id in self._names()
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id == "self" and self.classes:
                return node.attr in self.classes[-1][2]
            return self._third_party(node.value)
        if isinstance(node, ast.Call):
            return self._third_party(node.func)
        if isinstance(node, ast.Subscript):  # annotations like weakref.WeakKeyDictionary[..., ollama.X]
            return self._third_party(node.value) or self._third_party(node.slice)
        if isinstance(node, ast.Tuple):
            return any(self._third_party(element) for element in node.elts)
        if isinstance(node, ast.BinOp):  # X | None
            return self._third_party(node.left) or self._third_party(node.right)
        if isinstance(node, ast.Constant) and isinstance(node.value, str):  # a string annotation
            try:
                return self._third_party(ast.parse(node.value, mode="eval").body)
            except SyntaxError:
                return False
        if isinstance(node, ast.Await):
            return self._third_party(node.value)
        return False

    def _report(self, node: ast.AST, what: str) -> None:
        self.found.append(f"{self.path}:{getattr(node, 'lineno', '?')}: {what}")

    def _bind(self, target: ast.expr) -> None:
        if isinstance(target, ast.Name):
            (self.local_names[-1] if self.local_names else self.module_names).add(target.id)
        elif (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name)
              and target.value.id == "self" and self.classes):
            self.classes[-1][2].add(target.attr)

    # -- imports --------------------------------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if not _is_third_party(alias.name):
                continue
            if any(_is_private(part) for part in alias.name.split(".")):
                self._report(node, f"imports the private module {alias.name}")
            self._bind(ast.Name(id=alias.asname or alias.name.split(".")[0]))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level or not node.module or not _is_third_party(node.module):
            return
        if any(_is_private(part) for part in node.module.split(".")):
            self._report(node, f"imports from the private module {node.module}")
        for alias in node.names:
            if _is_private(alias.name):
                self._report(node, f"imports the private name {node.module}.{alias.name}")
            self._bind(ast.Name(id=alias.asname or alias.name))

    # -- scopes ---------------------------------------------------------------------------------
    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        third_party_base = any(self._third_party(base) for base in node.bases)
        own: set[str] = set()
        attributes: set[str] = set()
        for item in ast.walk(node):
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                own.add(item.name)
            elif isinstance(item, ast.Attribute) and isinstance(item.ctx, ast.Store):
                own.add(item.attr)
            elif isinstance(item, ast.Name) and isinstance(item.ctx, ast.Store):
                own.add(item.id)
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                own.add(item.target.id)
        for item in node.body:  # properties and methods typed as returning a third-party object
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and self._third_party(item.returns):
                attributes.add(item.name)
        self.classes.append((third_party_base, own, attributes))
        self.local_names.append(set())
        for statement in node.body:
            self.visit(statement)
        self.local_names.pop()
        self.classes.pop()
        if third_party_base:  # instances of our subclass are third-party objects too
            self._bind(ast.Name(id=node.name))

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        self.local_names.append(set())
        arguments = node.args
        for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg,
                    arguments.kwarg]:
            if arg is not None and self._third_party(arg.annotation):
                self.local_names[-1].add(arg.arg)
        for statement in node.body:
            self.visit(statement)
        self.local_names.pop()

    visit_FunctionDef = _visit_function
    visit_AsyncFunctionDef = _visit_function

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        for target in node.targets:
            self.visit(target)
            if self._third_party(node.value):
                self._bind(target)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
        self.visit(node.target)
        if self._third_party(node.annotation) or self._third_party(node.value):
            self._bind(node.target)

    def visit_withitem(self, node: ast.withitem) -> None:
        self.visit(node.context_expr)
        if node.optional_vars is not None and self._third_party(node.context_expr):
            self._bind(node.optional_vars)

    # -- the checks -----------------------------------------------------------------------------
    def visit_Attribute(self, node: ast.Attribute) -> None:
        if _is_private(node.attr):
            base = node.value
            if self._third_party(base):
                self._report(node, f"{ast.unparse(node)}: private attribute of a third-party object")
            elif self.classes and self.classes[-1][0] and node.attr not in self.classes[-1][1] and (
                    (isinstance(base, ast.Name) and base.id in ("self", "cls"))
                    or (isinstance(base, ast.Call) and isinstance(base.func, ast.Name) and base.func.id == "super")):
                self._report(node, f"{ast.unparse(node)}: private attribute inherited from a third-party class")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name) and node.func.id == "super" and node.args \
                and self._third_party(node.args[0]):
            self._report(node, f"{ast.unparse(node)}: skips a third-party class's own implementation")
        self.generic_visit(node)


def private_internals(source: str, path: str = "<source>") -> list[str]:
    """Each use of a third-party library's private internals in `source`, as `path:line: what`."""
    scanner = _Scanner(path)
    scanner.visit(ast.parse(source, path))
    return scanner.found


def test_backend_and_scripts_use_no_private_internals_of_libraries() -> None:
    found = [hit for folder in SCANNED for path in sorted((REPO_ROOT / folder).rglob("*.py"))
             for hit in private_internals(path.read_text(encoding="utf-8"), str(path.relative_to(REPO_ROOT)))]
    assert found == [], "private internals of third-party libraries:\n" + "\n".join(found)


# The three uses backend/llm/client.py once had, and other shapes of the same thing: each must be found.
VIOLATIONS = {
    "request": """
import ollama
class LLMClient:
    @property
    def _async(self) -> ollama.AsyncClient:
        return ollama.AsyncClient()
    async def chat(self, body):
        return await self._async._request(ollama.ChatResponse, "POST", "/api/chat", content=body)
""",
    "base_url": """
import ollama
class LLMClient:
    def __init__(self, host: str) -> None:
        self._sync = ollama.Client(host=host)
        self._url = self._sync._client.base_url.join("api/chat")
""",
    "super_trick": """
from typing import Any
import ollama
class Cookieless(ollama.AsyncClient):
    def __init__(self, host: str, **kwargs: Any) -> None:
        super(ollama.AsyncClient, self).__init__(object, host, **kwargs)
""",
    "module_attribute": "import numpy as np\nnp._core.multiarray\n",
    "local_variable": "import httpx\ndef f():\n    client = httpx.Client()\n    return client._transport\n",
    "annotated_parameter": "import httpx\ndef f(response: httpx.Response):\n    return response._content\n",
    "private_import": "from ollama._client import _copy_messages\n",
    "inherited": "import httpx\nclass Jar(httpx.Cookies):\n    def size(self):\n        return len(self._jar)\n",
    "with_statement": "import httpx\nwith httpx.Client() as client:\n    client._mounts\n",
}

ALLOWED = {
    "own_private_attributes": ("class A:\n    def __init__(self):\n        self._x = 1\n"
                               "    def f(self):\n        return self._x\n"),
    "own_modules": "from backend.llm import client\nclient._not_pulled('m')\nimport backend.store.db as db\ndb._x\n",
    "relative": "from . import sibling\nsibling._helper()\n",
    "stdlib": "import sys\nsys._getframe(0)\nimport os\nos._exit(0)\n",
    "public_use": "import ollama\nc = ollama.AsyncClient()\nc.chat(model='m')\nsuper().__init__()\n",
    "subclass_own_private": ("import httpx\nclass T(httpx.AsyncBaseTransport):\n    def __init__(self):\n"
                             "        self._inner = 1\n    def f(self):\n        return self._inner\n"),
    "dunder": "import numpy as np\nnp.__version__\n",
    "namedtuple_api": "from urllib3.util import parse_url\nparse_url('http://x')._replace(path='/')\n",
    "shadowed_later_in_other_function": "import httpx\ndef f():\n    x = httpx.Client()\ndef g(x):\n    return x._y\n",
}


@pytest.mark.parametrize("name", sorted(VIOLATIONS))
def test_the_scan_finds_each_kind_of_private_use(name: str) -> None:
    assert private_internals(VIOLATIONS[name]) != []


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_the_scan_leaves_our_own_private_names_alone(name: str) -> None:
    assert private_internals(ALLOWED[name]) == []


def test_the_old_client_is_reported_three_times() -> None:
    hits = [hit for name in ("request", "base_url", "super_trick") for hit in private_internals(VIOLATIONS[name])]
    assert len(hits) == 3
