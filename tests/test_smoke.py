"""The real server, started the README way (migrate, then uvicorn), answers over TCP."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.server import serve, upgrade


def test_server_starts_the_readme_way_and_plays_a_round(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'svizzera.db'}"
    upgrade(url)
    with serve(url) as base, httpx.Client(base_url=base, timeout=10) as http:
        assert http.get("/health").json() == {"status": "ok", "database": "ok"}
        players = [{"name": n} for n in ("Rossi", "Bianchi", "Verdi", "Neri")]
        created = http.post("/v1/tournaments", json={"name": "Smoke", "players": players})
        assert created.status_code == 201
        tid, token = created.json()["id"], created.json()["organizer_token"]
        auth = {"Authorization": f"Bearer {token}"}
        swiss_round = http.post(f"/v1/tournaments/{tid}/rounds", headers=auth).json()
        assert len(swiss_round["matches"]) == 2
        for m in swiss_round["matches"]:
            put = http.put(
                f"/v1/tournaments/{tid}/matches/{m['id']}/result",
                json={"home": 1, "away": 0},
                headers=auth,
            )
            assert put.status_code == 200
        rows = http.get(f"/v1/tournaments/{tid}/standings").json()["rows"]
        assert [r["points"] for r in rows] == [3, 3, 0, 0]
        assert http.get("/openapi.json").json()["info"]["title"] == "Svizzera"
        page = http.get(f"/v1/tournaments/{tid}/print")
        assert page.headers["content-type"].startswith("text/html")
