"""``svizzera club …`` against the real server: a club made and its key saved (owner-only,
never printed), the register filled and searched, an evening of the club from a file of names
and register ids, a merge, and the keys rotated."""

from __future__ import annotations

import json
import stat
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest
from live_server import LiveServer
from typer.testing import CliRunner, Result

from svizzera_client import Client
from svizzera_client.cli import app
from svizzera_client.cli.store import Store
from svizzera_client.models import ClubTournamentCreate, PlayerCreate, RegisterPlayer, ResultWrite

Run = Callable[..., Result]


@pytest.fixture
def svizzera(server: LiveServer, tmp_path: Path) -> Run:
    env: Mapping[str, str | None] = {
        "SVIZZERA_SERVER": server.url,
        "SVIZZERA_CONFIG_DIR": str(tmp_path / "config"),
        "SVIZZERA_TOURNAMENT": None,
        "SVIZZERA_CLUB": None,
        "COLUMNS": "120",
    }

    def run(*args: str, status: int = 0) -> Result:
        result = CliRunner().invoke(app, list(args), env=env)
        assert result.exit_code == status, (args, result.stdout, result.stderr)
        return result

    return run


def as_json(result: Result) -> Any:
    return json.loads(result.stdout.splitlines()[-1])


def test_a_club_evening_from_the_terminal(svizzera: Run, tmp_path: Path) -> None:
    made = as_json(svizzera("club", "create", "Circolo Rovereto", "--json"))
    key_file = Path(made["key_file"])
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    secret = json.loads(key_file.read_text())["key"]
    assert "key" not in made["key"]
    muller = as_json(
        svizzera("club", "add", "Müller", "--alias", "Mueller", "--rating", "1900", "--json")
    )
    assert (muller["name"], muller["aliases"], muller["rating"]) == ("Müller", ["Mueller"], 1900)

    players = tmp_path / "friday.txt"
    players.write_text(f"# Friday\n@{muller['id']}\nRossi\nBianchi, 1500\nVerdi\n")
    evening = as_json(svizzera("club", "tournament", str(players), "--seed", "7", "--json"))
    assert evening["club_id"] == made["id"]
    assert [p["name"] for p in evening["players"]] == ["Müller", "Rossi", "Bianchi", "Verdi"]
    round_one = as_json(svizzera("round", "--json"))  # the club's tournament is the current one
    assert len(round_one["matches"]) == 2

    found = as_json(svizzera("club", "players", "MUELLER", "--json"))
    assert [e["name"] for e in found["items"]] == ["Müller"]
    listed = svizzera("club", "players")
    assert "Bianchi" in listed.stdout and "4 found." in listed.stdout
    twice = as_json(svizzera("club", "add", "Rossi Mario", "--json"))
    rossi = as_json(svizzera("club", "players", "rossi", "--json"))["items"][0]
    merged = as_json(svizzera("club", "merge", str(rossi["id"]), str(twice["id"]), "--json"))
    assert merged["aliases"] == ["Rossi Mario"]
    assert [t["tournament_id"] for t in merged["tournaments"]] == [evening["id"]]
    listed_t = as_json(svizzera("club", "tournaments", "--status", "swiss", "--json"))
    assert [t["id"] for t in listed_t["items"]] == [evening["id"]]

    first = made["key"]["id"]
    rotated = svizzera("club", "keys", "--rotate", str(first))
    assert "It was the key saved here" in rotated.stdout
    assert json.loads(key_file.read_text())["key"] != secret
    keys = as_json(svizzera("club", "keys", "--new", "Treasurer", "--json"))
    assert (keys[0]["id"], keys[0]["label"]) == (first, None)
    treasurer = keys[1]
    assert treasurer["label"] == "Treasurer"
    after = as_json(svizzera("club", "keys", "--revoke", str(treasurer["id"]), "--json"))
    assert [k["revoked_at"] is None for k in after] == [True, False]
    last = svizzera("club", "keys", "--revoke", str(first), status=1)
    assert "(last_club_key)" in last.stderr


def test_a_clubs_ratings_from_the_terminal(svizzera: Run, tmp_path: Path) -> None:
    svizzera("club", "create", "Rated", "--elo-k", "32")
    rossi = as_json(svizzera("club", "add", "Rossi", "--rating", "1600", "--json"))
    bianchi = as_json(svizzera("club", "add", "Bianchi", "--rating", "1400", "--json"))
    players = tmp_path / "one.txt"
    players.write_text(f"@{rossi['id']}\n@{bianchi['id']}\n")
    made = as_json(svizzera("club", "tournament", str(players), "--seed", "7", "--json"))
    assert [p["rating"] for p in made["players"]] == [1600, 1400]
    listed = as_json(svizzera("club", "ratings", "--json"))
    assert (listed["rating_system"], listed["items"]) == ("elo", [])
    again = as_json(svizzera("club", "tournament", str(players), "--seed-by-rating", "--json"))
    assert [p["rating"] for p in again["players"]] == [1600, 1400]  # nobody rated yet
    shown = svizzera("club", "ratings", "--system", "glicko2", "--k", "24").stdout
    assert "Club ratings (glicko2)" in shown and "0 rated" in shown
    history = as_json(svizzera("club", "ratings", "--history", str(rossi["id"]), "--json"))
    assert history == {"club_player_id": rossi["id"], "items": [], "next_cursor": None}


def test_a_season_from_the_terminal(svizzera: Run, tmp_path: Path) -> None:
    made = as_json(svizzera("club", "create", "Circolo Trento", "--json"))
    season = as_json(
        svizzera("season", "create", "Winter", "--scoring", "places", "--places", "3,2,1",
                 "--json")
    )  # fmt: skip
    assert (season["club_id"], season["place_points"]) == (made["id"], [3, 2, 1])
    players = tmp_path / "evening.txt"
    players.write_text("Rossi\nBianchi\nVerdi\nNeri\n")
    evening = as_json(svizzera("club", "tournament", str(players), "--seed", "7", "--json"))
    joined = as_json(svizzera("season", "join", str(season["id"]), "--json"))
    assert (joined["id"], joined["season_id"]) == (evening["id"], season["id"])
    table = as_json(svizzera("season", "standings", str(season["id"]), "--json"))
    assert table["rows"] == []
    assert [(e["tournament_id"], e["counted"]) for e in table["evenings"]] == [
        (evening["id"], False)
    ]
    shown = svizzera("season", "standings", str(season["id"])).stdout
    assert "Not counted yet" in shown
    csv = svizzera("season", "standings", str(season["id"]), "--csv").stdout
    assert csv.splitlines()[0].startswith("rank,club_player_id,name,score")
    renamed = as_json(svizzera("season", "rename", str(season["id"]), "Inverno", "--json"))
    assert (renamed["name"], renamed["place_points"], renamed["version"]) == (
        "Inverno",
        [3, 2, 1],
        2,
    )
    ruled = as_json(
        svizzera("season", "rule", str(season["id"]), "--scoring", "average", "--best", "4",
                 "--json")
    )  # fmt: skip
    assert (ruled["scoring"], ruled["place_points"], ruled["best"]) == ("average", [], 4)
    shown = svizzera("season", "rule", str(season["id"]), "--every-evening").stdout
    assert "scores by average, every evening" in shown
    assert "deleted" in svizzera("season", "delete", str(season["id"])).stdout
    gone = svizzera("season", "standings", str(season["id"]), status=1)
    assert "(season_not_found)" in gone.stderr


def test_a_clubs_events_from_the_terminal(
    svizzera: Run, server: LiveServer, tmp_path: Path
) -> None:
    made = as_json(svizzera("club", "create", "Followed", "--json"))
    assert as_json(svizzera("club", "events", "--json"))["items"] == []
    key = Store(tmp_path / "config").club_key(made["id"], server.url)
    with Client(server.url, club_keys={made["id"]: key}) as client:  # an evening, finished
        players: list[RegisterPlayer | PlayerCreate] = [
            PlayerCreate(name=n) for n in ("Rossi", "Bianchi")
        ]
        body = ClubTournamentCreate(
            name="Evening", players=players, seed=7, swiss_rounds=1, final_phase="none"
        )
        evening = client.create_club_tournament(made["id"], body)
        match = client.generate_round(evening.id).matches[0]
        client.record_result(evening.id, match.id, ResultWrite(home=1, away=0))
    listed = svizzera("club", "events").stdout
    assert f"#1 rating.updated: tournament {evening.id} rated, 2 ratings moved" in listed
    followed = svizzera("club", "events", "--follow", "--timeout", "1", "--json").stdout
    envelopes = [json.loads(line) for line in followed.splitlines()]
    assert [(e["id"], e["type"], e["data"]["tournament_id"]) for e in envelopes] == [
        (1, "rating.updated", evening.id)
    ]
    assert svizzera("club", "events", "--follow", "--after", "1", "--timeout", "1").stdout == ""
