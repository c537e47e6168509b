"""The layers point one way: nothing below the HTTP layer imports ``app.api``.

Services, the read models, the webhook worker and the printing code are used by the API; if one
of them imported the API, a change of a request schema could silently change what a service
stores or what an event carries.
"""

from __future__ import annotations

import ast
from pathlib import Path

import app

APP = Path(app.__file__).parent
BELOW_THE_API = ["services", "webhooks", "printing", "domain", "read_models.py", "broadcast.py"]


def imported_modules(path: Path) -> set[str]:
    """Every module ``path`` imports, ``from app import api`` counted as ``app.api``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_nothing_below_the_api_imports_it() -> None:
    modules = sorted(
        path
        for part in BELOW_THE_API
        for path in ([APP / part] if part.endswith(".py") else (APP / part).rglob("*.py"))
    )
    assert len(modules) >= 30  # the scan really found the services and the rest
    offenders = {
        f"{path.relative_to(APP)}: {name}"
        for path in modules
        for name in imported_modules(path)
        if name == "app.api" or name.startswith("app.api.")
    }
    assert offenders == set()


def test_the_scan_would_see_an_api_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from app.api.schemas import X\nimport app.api.deps\nfrom app import api\n")
    assert {"app.api.schemas", "app.api.deps", "app.api"} <= imported_modules(bad)
