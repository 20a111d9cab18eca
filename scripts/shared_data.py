"""Where the real-world documents and judged collections live, for the tests, benchmarks and evaluations.

They are not part of the repository: `shared/` beside the clone holds `corpus/` (real documents and the
manifest of phrases to find in them) and `eval/cranfield/` (a judged retrieval collection). A clone kept
elsewhere names that folder with QUIRE_SHARED.
"""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("QUIRE_SHARED") or REPO.parent / "shared").resolve()
CORPUS = SHARED / "corpus"
CRANFIELD = SHARED / "eval" / "cranfield"


def missing_reason() -> str | None:
    """Why the shared folder cannot be used, or None when the corpus and the collection are both there."""
    wanted = [CORPUS / "manifest.json", CRANFIELD]
    absent = [str(path) for path in wanted if not path.exists()]
    if not absent:
        return None
    return (f"the real-world corpus and judged collection were not found ({', '.join(absent)} missing). "
            "They sit in shared/ beside the clone; set QUIRE_SHARED to that folder when the clone is elsewhere.")
