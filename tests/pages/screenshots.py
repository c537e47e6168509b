"""Screenshots of the live page in each state, size and language, for people to look at.

    .venv/bin/python -m tests.pages.screenshots OUTDIR [--lang en it ...] [--pages live print]

``live``: starts a server on a fresh SQLite file, plays an evening over HTTP and saves
``live-<state>-<size>-<lang>.png`` (states: round, final, finished; sizes: phone 390 px wide,
desktop 1366 × 900, TV 1920 × 1080 with ``?tv=1``), and ``live-past-phone-<lang>.png``, a phone
looking back at round 1. Phone shots show the whole page.
``print``: ``print-example.png``, the two A4 pages of a 16-player evening as Chromium prints
them (poppler's ``pdftoppm`` draws the PDF), side by side: ``docs/print-example.png``.
"""

from __future__ import annotations

import argparse
import base64
import random
import subprocess
import tempfile
from datetime import date
from pathlib import Path

from PIL import Image

from app.printing import render_print_page
from tests.chromium import chromium as chromium_binary
from tests.chromium import run_chromium
from tests.pages.browser import chromium, wait_for
from tests.pages.evening import Evening, start
from tests.printing.tournaments import standard_evening
from tests.server import serve, upgrade

SIZES = {"phone": (390, 844), "desktop": (1366, 900), "tv": (1920, 1080)}


def shoot(evening: Evening, base: str, state: str, out: Path, languages: list[str]) -> None:
    for size, (width, height) in SIZES.items():
        for lang in languages:
            url = f"{base}/v1/tournaments/{evening.id}/live?lang={lang}"
            if size == "tv":
                url += "&tv=1"
            with chromium(width, height) as page:
                page.get(url)
                wait_for(page, lambda p: p.find_element("id", "connection").text.strip())
                path = out / f"live-{state}-{size}-{lang}.png"
                if size == "phone":
                    shot = page.execute_cdp_cmd(
                        "Page.captureScreenshot", {"captureBeyondViewport": True}
                    )
                    path.write_bytes(base64.b64decode(shot["data"]))
                else:
                    page.save_screenshot(str(path))
                print(path)


def shoot_past_round(evening: Evening, base: str, out: Path, languages: list[str]) -> None:
    width, height = SIZES["phone"]
    for lang in languages:
        with chromium(width, height) as page:
            page.get(f"{base}/v1/tournaments/{evening.id}/live?lang={lang}&round=1")
            wait_for(page, lambda p: p.find_element("id", "connection").text.strip())
            path = out / f"live-past-phone-{lang}.png"
            path.write_bytes(page.get_screenshot_as_png())
            print(path)


def print_example(out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        html = render_print_page(
            standard_evening(first=("Bob Sutter",)),
            name="Thursday Evening Cup",
            today=date(2026, 12, 1),
            live_address="http://192.168.1.20:8000/v1/tournaments/OVIf3W8Vcx2_7CYw/live",
        )
        page, pdf = Path(tmp) / "print.html", Path(tmp) / "print.pdf"
        page.write_text(html, encoding="utf-8")
        run_chromium(
            chromium_binary(),
            page.as_uri(),
            Path(tmp) / "profile",
            "--no-pdf-header-footer",
            f"--print-to-pdf={pdf}",
        )
        subprocess.run(["pdftoppm", "-r", "80", "-png", pdf, Path(tmp) / "p"], check=True)
        sheets = [Image.open(png) for png in sorted(Path(tmp).glob("p-*.png"))]
        gap = 4
        both = Image.new(
            "RGB",
            (sum(s.width for s in sheets) + gap * (len(sheets) - 1), sheets[0].height),
            (120, 120, 120),
        )
        for at, sheet in enumerate(sheets):
            both.paste(sheet, (at * (sheet.width + gap), 0))
        path = out / "print-example.png"
        both.quantize(colors=256).save(path, optimize=True)  # text on white: 256 colours do
        print(path)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--lang", nargs="+", default=["en", "it"])
    parser.add_argument("--pages", nargs="+", choices=["live", "print"], default=["live", "print"])
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if "print" in args.pages:
        print_example(args.out)
    if "live" in args.pages:
        live_screenshots(args.out, args.lang)


def live_screenshots(out: Path, languages: list[str]) -> None:
    rng = random.Random(3)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{tmp}/svizzera.db"
        upgrade(url)
        with serve(url) as base:
            evening = start(base)
            for _ in range(2):
                evening.play(evening.generate(), rng)
            players = evening.call("GET", "/players")
            evening.call("PATCH", f"/players/{players[5]['id']}", json={"withdrawn": True})
            evening.play(evening.generate(), rng, leave=3)
            shoot(evening, base, "round", out, languages)
            shoot_past_round(evening, base, out, languages)
            rest = evening.call("GET", "/rounds/3")["matches"][-3:]
            for match in rest:
                evening.record(match["id"], 2, 2)
            for _ in range(2):
                evening.play(evening.generate(), rng)
            evening.final_phase()
            semifinal = evening.call("GET", "/final-phase")["matches"][0]
            evening.record(semifinal["id"], 1, 1, winner="away", decided_by="penalties")
            shoot(evening, base, "final", out, languages)
            evening.play_final_phase(rng)
            shoot(evening, base, "finished", out, languages)


if __name__ == "__main__":
    main()
