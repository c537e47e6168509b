"""The README's script runs as printed, against the real server."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from live_server import LiveServer

README = Path(__file__).resolve().parents[1] / "README.md"


def test_the_readme_script_runs_a_whole_evening(server: LiveServer, tmp_path: Path) -> None:
    (script,) = re.findall(r"```python\n(# evening\.py.*?)```", README.read_text(), re.S)
    env = {**os.environ, "SVIZZERA_SERVER": server.url}
    ran = subprocess.run(
        [sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert [line.split(".")[0] for line in lines[:8]] == [str(rank) for rank in range(1, 9)]
    assert sum(line.endswith(" Q") for line in lines[:8]) == 4
    assert [line.split(":")[0] for line in lines[8:]] == [str(place) for place in range(1, 9)]
    assert "Friday evening" in (tmp_path / "evening.html").read_text(encoding="utf-8")
