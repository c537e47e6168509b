"""The printed page in a real browser: headless Chromium takes a screenshot and prints a PDF."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from app.domain.tournament import Tournament
from app.printing import render_print_page
from tests.chromium import chromium, count_colour, png_pixels, run_chromium
from tests.printing.tournaments import groups_evening, standard_evening

QUALIFIED_GREEN = (0xBF, 0xE8, 0xB5)
"""``--qualified`` in ``app/templates/print.html``."""


@pytest.mark.parametrize("build", [standard_evening, groups_evening], ids=["standard", "groups"])
def test_chromium_renders_and_prints_the_page(
    build: Callable[[], Tournament], tmp_path: Path
) -> None:
    binary = chromium()
    tournament = build()
    page = tmp_path / "print.html"
    page.write_text(render_print_page(tournament, name="Thursday Cup"), encoding="utf-8")
    png, pdf = tmp_path / "page.png", tmp_path / "page.pdf"

    target = page.as_uri()
    run_chromium(binary, target, tmp_path / "p1", f"--screenshot={png}", "--window-size=1240,1754")
    run_chromium(binary, target, tmp_path / "p2", "--no-pdf-header-footer", f"--print-to-pdf={pdf}")

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


FITS, OVERFLOWS = (0, 0, 255), (255, 0, 0)
WIDTH_PROBE = (
    "<script>document.documentElement.style.background = document.body.style.background ="
    " document.documentElement.scrollWidth > innerWidth ? 'rgb(255,0,0)' : 'rgb(0,0,255)';"
    "</script></body>"
)
"""Paints the page's margins blue when nothing is wider than the window, red when it is."""


@pytest.mark.parametrize("build", [standard_evening, groups_evening], ids=["standard", "groups"])
def test_a_phone_sees_every_column_it_shows_and_whole_names(
    build: Callable[[], Tournament], tmp_path: Path
) -> None:
    binary = chromium()
    html = render_print_page(build(), name="Thursday Cup")
    assert "text-overflow: ellipsis" not in html  # long names wrap, on paper too
    page = tmp_path / "print.html"
    page.write_text(html.replace("</body>", WIDTH_PROBE), encoding="utf-8")
    png = tmp_path / "phone.png"
    run_chromium(
        binary, page.as_uri(), tmp_path / "p", f"--screenshot={png}", "--window-size=390,1600"
    )
    width, _, bpp, pixels = png_pixels(png.read_bytes())
    assert width == 390
    assert count_colour(pixels, bpp, OVERFLOWS) == 0
    assert count_colour(pixels, bpp, FITS) > 10_000
