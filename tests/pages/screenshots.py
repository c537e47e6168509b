"""Screenshots of the live page in each state, size and language, for people to look at.

    .venv/bin/python -m tests.pages.screenshots OUTDIR [--lang en it ...]

Starts a server on a fresh SQLite file, plays an evening over HTTP and saves
``live-<state>-<size>-<lang>.png`` (states: round, final, finished; sizes: phone 390 px wide,
desktop 1366 × 900, TV 1920 × 1080 with ``?tv=1``). Phone shots show the whole page.
"""

from __future__ import annotations

import argparse
import base64
import random
import tempfile
from pathlib import Path

from tests.pages.browser import chromium, wait_for
from tests.pages.evening import Evening, start
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("out", type=Path)
    parser.add_argument("--lang", nargs="+", default=["en", "it"])
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
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
            shoot(evening, base, "round", args.out, args.lang)
            rest = evening.call("GET", "/rounds/3")["matches"][-3:]
            for match in rest:
                evening.record(match["id"], 2, 2)
            for _ in range(2):
                evening.play(evening.generate(), rng)
            evening.final_phase()
            semifinal = evening.call("GET", "/final-phase")["matches"][0]
            evening.record(semifinal["id"], 1, 1, winner="away", decided_by="penalties")
            shoot(evening, base, "final", args.out, args.lang)
            evening.play_final_phase(rng)
            shoot(evening, base, "finished", args.out, args.lang)


if __name__ == "__main__":
    main()
