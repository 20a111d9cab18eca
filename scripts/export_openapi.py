"""Print Quire's OpenAPI schema as JSON on stdout, for the web app's generated API types.

`create_app()` only wires routes here (the database, DBOS and the model client start in the lifespan,
which never runs), so this needs no server, no database and no network. Used by `npm run gen:api`.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from backend.process import configure_process

configure_process()  # process-wide settings first: before the imports below load FAISS (OpenMP)

from backend.app import create_app


def main() -> None:
    schema = create_app().openapi()
    json.dump(schema, sys.stdout, indent=2, sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
