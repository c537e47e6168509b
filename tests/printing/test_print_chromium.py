"""The printed page in a real browser: headless Chromium takes a screenshot and prints a PDF."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable
from datetime import date
from pathlib import Path

import pytest
import zxingcpp
from PIL import Image

from app.domain.tournament import Tournament
from app.pages.i18n import Language, translations
from app.printing import render_print_page
from tests.chromium import chromium, count_colour, png_pixels, run_chromium
from tests.printing.tournaments import groups_evening, standard_evening

QUALIFIED_GREEN = (0xBF, 0xE8, 0xB5)
"""``--qualified`` in ``app/templates/print.html``."""


LONG_NAMES = (
    "Maria Antonietta Giuseppina della Rovere-Montefeltro",
    "Konstantinopolitanischerdudelsackpfeifenmachergesellschaft",
)
"""Two names a column cannot hold on one line; the second has no place to break at all."""


def long_names_evening() -> Tournament:
    return standard_evening(first=LONG_NAMES)


TODAY = date(2026, 12, 1)
LIVE = "http://192.168.1.20:8000/v1/tournaments/OVIf3W8Vcx2_7CYw/live"
"""The live page's address, as the QR code in the masthead carries it (on paper too)."""
EVENINGS: dict[str, tuple[Callable[[], Tournament], Language, str]] = {
    "standard": (standard_evening, "en", "December 1, 2026"),
    "long-names": (long_names_evening, "it", "1 dicembre 2026"),
    "groups": (groups_evening, "cs", "1. prosince 2026"),
}
"""A whole evening each (Swiss rounds, final phase, final ranking), the language it is printed in
and the date as that language writes it."""


def pdf_text(pdf: Path, page: int) -> str:
    """The text of one page of ``pdf`` (poppler's ``pdftotext``; ``.ci/run`` installs it)."""
    binary = shutil.which("pdftotext")
    if binary is None:
        message = "poppler-utils is not installed (apt-get install -y poppler-utils)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message + "; CI requires it")
    command = [binary, "-f", str(page), "-l", str(page), "-layout", str(pdf), "-"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=True)
    return done.stdout


@pytest.mark.parametrize("evening", list(EVENINGS))
def test_a_whole_evening_prints_on_two_a4_pages_with_name_and_date_on_each(
    evening: str, tmp_path: Path
) -> None:
    build, language, written_date = EVENINGS[evening]
    binary = chromium()
    tournament = build()
    page = tmp_path / "print.html"
    html = render_print_page(
        tournament, name="Thursday Cup", language=language, today=TODAY, live_address=LIVE
    )
    page.write_text(html, encoding="utf-8")
    png, pdf = tmp_path / "page.png", tmp_path / "page.pdf"

    target = page.as_uri()
    run_chromium(binary, target, tmp_path / "p1", f"--screenshot={png}", "--window-size=1240,1754")
    run_chromium(binary, target, tmp_path / "p2", "--no-pdf-header-footer", f"--print-to-pdf={pdf}")

    width, height, bpp, pixels = png_pixels(png.read_bytes())
    assert (width, height) == (1240, 1754)
    (code,) = zxingcpp.read_barcodes(Image.open(png))  # the live page's QR code, beside the title
    assert code.text == LIVE
    # 4 qualifier rows, each ~1100 × 25 px of green, plus the winners in the bracket.
    assert count_colour(pixels, bpp, QUALIFIED_GREEN) > 50_000
    document = pdf.read_bytes()
    assert document.startswith(b"%PDF-")
    # A4 portrait (595 × 842 pt), two sheets: the standings and the final phase, then the rounds.
    assert re.search(rb"/MediaBox\s*\[\s*0 0 59[45]\.?\d* 84[12]\.?\d*\s*\]", document)
    assert len(re.findall(rb"/Type\s*/Page[^s]", document)) == 2
    first, second = pdf_text(pdf, 1), pdf_text(pdf, 2)
    for number, text in enumerate((first, second), start=1):
        footer = text.strip().splitlines()[-1]
        assert "Thursday Cup" in footer and written_date in footer, footer
        assert footer.replace(" ", "").endswith(f"{number}/2"), footer
    assert written_date in first.split("\n", 3)[1]  # under the title too, on screen as well
    ranking = _("Final ranking", language)
    assert ranking in first and ranking not in second
    last_round = _("Round %(number)d", language) % {"number": tournament.current_round}
    assert last_round in second and last_round not in first
    for name in (player.name for player in tournament.players.values()):
        for word in re.split(r"[\s-]+", name):
            if len(word) < 30:  # a word longer than a column is broken across lines
                assert word in first, word  # standings and final ranking, whole


def _(message: str, language: Language) -> str:
    text: str = translations(language).gettext(message)
    return text


FITS, OVERFLOWS = (0, 0, 255), (255, 0, 0)
WIDTH_PROBE = (
    "<script>document.documentElement.style.background = document.body.style.background ="
    " document.documentElement.scrollWidth > innerWidth ? 'rgb(255,0,0)' : 'rgb(0,0,255)';"
    "</script></body>"
)
"""Paints the page's margins blue when nothing is wider than the window, red when it is."""


@pytest.mark.parametrize(
    "build",
    [standard_evening, long_names_evening, groups_evening],
    ids=["standard", "long-names", "groups"],
)
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
