"""The season table's pages in a real browser: the live page on a phone and a TV redraws its
table when an evening of the season finishes, in Italian; the printed page on A4 width. The
screenshots are saved for people to look at (``SVIZZERA_SCREENSHOTS`` names a folder to keep
them; else the test's temporary folder)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.pages.browser import chromium, wait_for
from tests.server import serve, upgrade

NAMES = ["Rossi", "Bianchi", "Verdi", "Neri", "Gialli", "Russo", "Ferrari", "Esposito", "Šťastný"]


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = f"sqlite:///{tmp_path_factory.mktemp('season')}/svizzera.db"
    upgrade(url)
    with serve(url) as served:
        yield served


def evening(http: httpx.Client, club: dict[str, Any], season: int, names: list[str]) -> str:
    """An evening of the season, three rounds, the name first in the list winning each game."""
    auth = {"Authorization": f"Bearer {club['key']['key']}"}
    made = http.post(
        f"/v1/clubs/{club['id']}/tournaments",
        json={"name": "Venerdì", "players": [{"name": n} for n in names], "swiss_rounds": 3,
              "final_phase": "none", "season_id": season, "seed": 3},
        headers=auth,
    ).json()  # fmt: skip
    order = {p["id"]: names.index(p["name"]) for p in made["players"]}
    for _ in range(3):
        drawn = http.post(f"/v1/tournaments/{made['id']}/rounds", headers=auth).json()
        results = [
            {"match_id": m["id"], "home": int(order[m["home"]] < order[m["away"]]),
             "away": int(order[m["away"]] < order[m["home"]])}
            for m in drawn["matches"]
        ]  # fmt: skip
        done = http.post(
            f"/v1/tournaments/{made['id']}/results", json={"results": results}, headers=auth
        )
        assert done.status_code == 200, done.text
    return str(made["id"])


def shots_folder(tmp_path: Path) -> Path:
    folder = Path(os.environ.get("SVIZZERA_SCREENSHOTS", tmp_path))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def test_the_season_pages_in_a_browser(base: str, tmp_path: Path) -> None:
    folder = shots_folder(tmp_path)
    with httpx.Client(base_url=base, timeout=30) as http:
        club = http.post("/v1/clubs", json={"name": "Circolo Rovereto"}).json()
        auth = {"Authorization": f"Bearer {club['key']['key']}"}
        season = http.post(
            f"/v1/clubs/{club['id']}/seasons",
            json={"name": "Inverno 2026", "scoring": "places", "best": 2},
            headers=auth,
        ).json()["id"]
        evening(http, club, season, NAMES[:8])
        path = f"{base}/v1/clubs/{club['id']}/seasons/{season}"
        with chromium(390, 844, language="it") as phone:
            phone.get(f"{path}/live?lang=it")
            rows = "return document.querySelectorAll('#season-table tbody tr').length"
            assert phone.execute_script(rows) == 8
            assert "Punti per piazzamento finale" in phone.page_source
            # a second evening finishes: the page asks again (as its timer would) and redraws
            evening(http, club, season, list(reversed(NAMES[1:])))
            phone.execute_script("document.dispatchEvent(new Event('visibilitychange'))")
            wait_for(phone, lambda page: page.execute_script(rows) == 9)
            first = phone.execute_script(
                "return document.querySelector('#season-table tbody tr td.name').textContent"
            )
            table = http.get(f"/v1/clubs/{club['id']}/seasons/{season}/standings").json()
            assert first == table["rows"][0]["name"]
            assert sum(e["counted"] for e in table["evenings"]) == 2
            phone.save_screenshot(str(folder / "season-live-phone-it.png"))
        with chromium(1366, 900, language="cs") as desktop:
            desktop.get(f"{path}/print?lang=cs")
            assert "Vytištěno" in desktop.page_source or "Tabulka sezóny" in desktop.title
            desktop.save_screenshot(str(folder / "season-print-desktop-cs.png"))
            desktop.get(f"{path}/live?lang=en")
            assert desktop.find_element("id", "evenings").text.startswith("2 evenings counted")
            desktop.save_screenshot(str(folder / "season-live-desktop-en.png"))
