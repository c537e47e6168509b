"""The domain is pure: its modules import only the standard library and ``app.domain``."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import app.domain

DOMAIN = Path(app.domain.__file__).parent


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
    return names


def test_domain_imports_only_the_standard_library_and_itself() -> None:
    modules = sorted(DOMAIN.rglob("*.py"))
    assert len(modules) >= 10  # the scan really found the domain
    offenders = {
        f"{path.relative_to(DOMAIN)}: {name}"
        for path in modules
        for name in imported_roots(path)
        if not name.startswith("app.domain")
        and name.split(".")[0] not in sys.stdlib_module_names
        and name != "__future__"
    }
    assert offenders == set()


def test_the_scan_would_see_a_framework_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import fastapi\nfrom sqlmodel import Field\nfrom app.services import x\n")
    assert imported_roots(bad) == {"fastapi", "sqlmodel", "app.services"}
