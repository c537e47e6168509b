"""The printed page in a real browser: headless Chromium takes a screenshot and prints a PDF.

Skipped only where Chromium is missing on a developer's machine; in CI (``CI`` set) a missing
Chromium fails the test, since ``.ci/run`` installs Debian's ``chromium`` package.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from app.domain.tournament import Tournament
from app.printing import render_print_page
from tests.printing.tournaments import groups_evening, standard_evening

QUALIFIED_GREEN = (0xBF, 0xE8, 0xB5)
"""``--qualified`` in ``app/templates/print.html``."""
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def chromium() -> str:
    found = shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed (apt-get install -y chromium)")
        pytest.skip("chromium is not installed (apt-get install -y chromium); CI requires it")
    return found


def run_chromium(binary: str, page: Path, profile: Path, *output: str) -> None:
    command = [binary, *FLAGS, f"--user-data-dir={profile}", *output, page.as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]


def png_pixels(data: bytes) -> tuple[int, int, int, bytes]:
    """Width, height, bytes per pixel and the unfiltered pixel bytes of an 8-bit RGB(A) PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, bytearray(), b""
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert (depth, interlace) == (8, 0) and colour in (2, 6), (depth, colour, interlace)
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(bytes(idat))
    stride = width * bpp
    out = bytearray(height * stride)
    previous = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            left = line[x - bpp] if x >= bpp else 0
            up = previous[x]
            corner = previous[x - bpp] if x >= bpp else 0
            if kind == 1:
                line[x] = (line[x] + left) & 0xFF
            elif kind == 2:
                line[x] = (line[x] + up) & 0xFF
            elif kind == 3:
                line[x] = (line[x] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[x] = (line[x] + predictor) & 0xFF
        out[y * stride : (y + 1) * stride] = line
        previous = line
    return width, height, bpp, bytes(out)


def count_colour(pixels: bytes, bpp: int, colour: tuple[int, int, int], *, slack: int = 3) -> int:
    r0, g0, b0 = colour
    return sum(
        1
        for i in range(0, len(pixels), bpp)
        if abs(pixels[i] - r0) <= slack
        and abs(pixels[i + 1] - g0) <= slack
        and abs(pixels[i + 2] - b0) <= slack
    )


@pytest.mark.parametrize("build", [standard_evening, groups_evening], ids=["standard", "groups"])
def test_chromium_renders_and_prints_the_page(
    build: Callable[[], Tournament], tmp_path: Path
) -> None:
    binary = chromium()
    tournament = build()
    page = tmp_path / "print.html"
    page.write_text(render_print_page(tournament, name="Thursday Cup"), encoding="utf-8")
    png, pdf = tmp_path / "page.png", tmp_path / "page.pdf"

    run_chromium(binary, page, tmp_path / "p1", f"--screenshot={png}", "--window-size=1240,1754")
    run_chromium(binary, page, tmp_path / "p2", "--no-pdf-header-footer", f"--print-to-pdf={pdf}")

    width, height, bpp, pixels = png_pixels(png.read_bytes())
    assert (width, height) == (1240, 1754)
    # 4 qualifier rows, each ~1100 × 25 px of green, plus the winners in the bracket.
    assert count_colour(pixels, bpp, QUALIFIED_GREEN) > 50_000
    assert png.stat().st_size > 50_000
    document = pdf.read_bytes()
    assert document.startswith(b"%PDF-")
    assert pdf.stat().st_size > 20_000
    # A4 portrait (595 × 842 pt) and, for a whole evening, more than one page.
    assert re.search(rb"/MediaBox\s*\[\s*0 0 59[45]\.?\d* 84[12]\.?\d*\s*\]", document)
    assert len(re.findall(rb"/Type\s*/Page[^s]", document)) >= 2
