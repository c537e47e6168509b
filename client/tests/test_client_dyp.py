"""DYP through the ``svizzera`` command and the client: created with ``--format dyp``, each round
shown and entered with both partners of each side, the standings by points per match."""

from __future__ import annotations

from pathlib import Path

from test_client_cli import Run, as_json
from test_client_cli import svizzera as svizzera  # the fixture

from svizzera_client.models import RoundRead, StandingsRead


def test_a_dyp_evening_names_both_partners(svizzera: Run, tmp_path: Path) -> None:
    players = tmp_path / "nine.txt"
    players.write_text("".join(f"Player {i}\n" for i in range(1, 10)))
    created = as_json(
        svizzera("create", str(players), "--format", "dyp", "--rounds", "2", "--seed", "3",
                 "--json")
    )  # fmt: skip
    assert (created["pairing"], created["tiebreak"]) == ("dyp", "points_per_match")
    drawn = RoundRead.model_validate(as_json(svizzera("round", "--json")))
    assert len(drawn.matches) == 2 and len(drawn.byes) == 1
    first = drawn.matches[0]
    assert len({*first.home_players, *first.away_players}) == 4
    names = {i: f"Player {i}" for i in range(1, 10)}
    home = " & ".join(names[p] for p in first.home_players)
    asked = svizzera("result", input="10-7\n5-10\n")
    assert home in asked.stderr + asked.stdout
    svizzera("round")
    svizzera("result", input="10-7\n5-10\n")
    standings = StandingsRead.model_validate(as_json(svizzera("standings", "--json")))
    assert standings.tiebreak == "points_per_match"
    assert all(r.points_per_match is not None for r in standings.rows)
    shown = svizzera("standings").stdout
    assert "Pts/M" in shown and "Buchholz" not in shown
