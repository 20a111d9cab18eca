"""Where an in-memory index's resident memory goes: its Python objects by type and its arrays.

Walks every object reachable from the index (`gc.get_referents`, each object counted once) and sums
`sys.getsizeof` by type; a numpy array counts its data only if it owns it (views add nothing). Memory
that FAISS owns outside Python (the dense channel's vectors and sketch) is the dense channel's public
`nbytes`. Whatever the process's resident memory holds beyond these (allocator slack, freed but not
returned heap) is reported by the caller as the difference to the measured RSS.

Used by `scripts/bench_search.py --breakdown`.
"""

from __future__ import annotations

import gc
import inspect
import sys
from collections import Counter
from types import ModuleType

import numpy as np

# Shared, not per-block, and not the index's: never walked into.
_STOP = (type, ModuleType)


def python_objects(root: object) -> Counter[str]:
    """Bytes by type name of every object reachable from `root` (numpy arrays: their own data included)."""
    seen: set[int] = set()
    sizes: Counter[str] = Counter()
    stack = [root]
    while stack:
        obj = stack.pop()
        # Functions lead to their modules' globals: code, not the index's data.
        if id(obj) in seen or isinstance(obj, _STOP) or inspect.isroutine(obj):
            continue
        seen.add(id(obj))
        if isinstance(obj, np.ndarray):
            sizes[f"ndarray {obj.dtype}"] += sys.getsizeof(obj)  # includes the data only when owned
            if obj.base is not None:
                stack.append(obj.base)
            continue
        sizes[type(obj).__name__] += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return sizes


def report(root: object, external: dict[str, int], rss_added: int, blocks: int) -> list[str]:
    """Lines of a breakdown per block: `external` is memory outside Python objects (name → bytes)."""
    sizes = python_objects(root)
    rows = [(f"{name} (outside Python)", size) for name, size in external.items()]
    rows += sorted(((f"py {name}", size) for name, size in sizes.items()), key=lambda r: -r[1])
    counted = sum(size for _, size in rows)
    rows.append(("not in the above (allocator, freed heap, code)", rss_added - counted))
    lines = [f"{'memory per block':52}{'bytes':>9}{'MiB total':>11}"]
    for name, size in rows:
        if abs(size) >= blocks:  # under one byte per block: not worth a line
            lines.append(f"{name:52}{size / blocks:>9.0f}{size / 2**20:>11.1f}")
    lines.append(f"{'RSS added by the build':52}{rss_added / blocks:>9.0f}{rss_added / 2**20:>11.1f}")
    return lines
