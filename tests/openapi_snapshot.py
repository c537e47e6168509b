"""Write the served ``/openapi.json`` to a file: ``python -m tests.openapi_snapshot [PATH]``.

Without PATH it rewrites ``docs/openapi.json``, the snapshot ``tests/test_openapi.py`` compares
with: run it when you change the API on purpose, and commit the file with the change. CI runs it
into a scratch file to generate and build the TypeScript and Python clients.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from app.main import create_app
from app.settings import Settings
from tests.client import ApiClient

SNAPSHOT = Path(__file__).resolve().parent.parent / "docs" / "openapi.json"


def served() -> dict[str, Any]:
    """The document as ``GET /openapi.json`` answers it (no database needed to build it)."""
    app = create_app(Settings(database_url="sqlite://"))
    try:  # no lifespan: the document needs neither the database nor the workers
        with ApiClient(app) as client:
            answer = client.get("/openapi.json")
        answer.raise_for_status()
        document: dict[str, Any] = answer.json()
    finally:
        app.state.engine.dispose()
    return document


def dump(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else SNAPSHOT
    target.write_text(dump(served()), encoding="utf-8")
