"""/docs and /redoc render in Chromium on a machine without network, and ask no other host.

The server and Chromium run in a network namespace of their own (``unshare --net``: loopback
only), see ``tests/browser/offline.py``. Swagger UI and ReDoc draw the operations only when their
JavaScript ran and read /openapi.json, so the rendered DOM and the screenshots show that every
file came from the server itself.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.offline import BROWSER_OWN
from tests.chromium import chromium, count_colour, png_pixels
from tests.client import ApiClient

ROOT = Path(__file__).resolve().parents[2]
GET_BLUE, POST_GREEN = (0x61, 0xAF, 0xFE), (0x49, 0xCC, 0x90)
"""Swagger UI's colours of GET and POST operations."""
REDOC_PANEL = (0x26, 0x32, 0x38)
"""ReDoc's dark right-hand panel of samples."""


def network_namespace_or_skip() -> None:
    done = subprocess.run(["unshare", "--net", "true"], capture_output=True, check=False)
    if done.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"unshare --net is refused: {done.stderr!r}")
        pytest.skip("unshare --net needs root (or user namespaces) here; CI runs it as root")


def test_docs_and_redoc_work_with_the_network_off(tmp_path: Path) -> None:
    chromium()
    network_namespace_or_skip()
    runner = [sys.executable, "-m", "tests.browser.offline", str(tmp_path)]
    done = subprocess.run(
        ["unshare", "--net", "--", *runner], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]

    escaped = json.loads((tmp_path / "escaped.json").read_text())
    assert [r for r in escaped if not any(host in r for host in BROWSER_OWN)] == []

    swagger = (tmp_path / "docs.html").read_text()
    assert 'class="opblock-summary-description"' in swagger  # drawn by Swagger UI's script
    assert "Create a tournament" in swagger and "Record or correct a result" in swagger
    redoc = (tmp_path / "redoc.html").read_text()
    assert "Create a tournament" in redoc and "Record or correct a result" in redoc

    _, _, bpp, pixels = png_pixels((tmp_path / "docs.png").read_bytes())
    assert count_colour(pixels, bpp, GET_BLUE) > 10_000
    assert count_colour(pixels, bpp, POST_GREEN) > 5_000
    _, _, bpp, pixels = png_pixels((tmp_path / "redoc.png").read_bytes())
    assert count_colour(pixels, bpp, REDOC_PANEL) > 100_000


def test_the_pages_may_reach_only_their_own_server(client: ApiClient) -> None:
    for page in ("/docs", "/redoc"):
        answer = client.get(page)
        assert answer.status_code == 200
        policy = answer.headers["content-security-policy"]
        assert "default-src 'self'" in policy and "connect-src 'self'" in policy
        assert "https://" not in answer.text and "http://" not in answer.text
    asset = client.get("/docs-assets/swagger-ui-bundle.js")
    assert asset.status_code == 200 and len(asset.content) > 500_000
