"""The README's evening with curl runs as written, against the real server on a fresh SQLite file,
and shows the organizer's remedies (undo, scorekeeper token, batch results, rotation)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import httpx
import pytest

from tests.server import ROOT, serve, upgrade

README_API = "http://localhost:8000/v1"


def readme_evening() -> str:
    """The shell block under "A whole evening with curl", as the README prints it."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.index("## A whole evening with curl")
    start = text.index("```sh\n", section) + len("```sh\n")
    return text[start : text.index("```\n", start)]


def test_the_readme_evening_runs_as_written(tmp_path: Path) -> None:
    if shutil.which("curl") is None:
        if os.environ.get("CI"):
            pytest.fail("curl is not installed")
        pytest.skip("curl is not installed; CI requires it")
    script = readme_evening()
    assert script.count(README_API) == 1
    url = f"sqlite:///{tmp_path / 'svizzera.db'}"
    upgrade(url)
    with serve(url) as base:
        # -e: a step whose answer lacks the field the next step reads fails the script.
        run = subprocess.run(
            ["bash", "-euo", "pipefail", "-c", script.replace(README_API, f"{base}/v1")],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert run.returncode == 0, run.stderr[-3000:]
        created = json.loads((tmp_path / "created.json").read_text())
        rotated = json.loads((tmp_path / "rotated.json").read_text())
        tournament = f"{base}/v1/tournaments/{created['id']}"
        old = {"Authorization": f"Bearer {created['organizer_token']}"}
        assert httpx.get(f"{tournament}/audit", headers=old).status_code == 403
        new = {"Authorization": f"Bearer {rotated['organizer_token']}"}
        tokens = httpx.get(f"{tournament}/tokens", headers=new).json()
    assert [t["revoked_at"] is not None for t in tokens] == [True]

    lines = run.stdout.splitlines()
    assert [line.split(". ")[0] for line in lines[:8]] == [str(n) for n in range(1, 9)]
    assert lines[8].startswith("[{'place': 1, ")
    assert lines[9:] == [
        "organizer tournaments-create",
        "organizer tokens-create",
        "organizer rounds-generate",
        "organizer rounds-undo",
        *["organizer rounds-generate", "scorekeeper:1 results-record",
          "organizer results-record-batch"] * 4,
        "organizer final-phase-start",
        *["organizer results-record"] * 4,
        "organizer tokens-revoke",
        "organizer organizer-token-rotate",
    ]  # fmt: skip
    assert "Friday evening" in (tmp_path / "evening.html").read_text(encoding="utf-8")
    assert (tmp_path / "standings.csv").read_bytes().startswith(b"\xef\xbb\xbfrank,")
