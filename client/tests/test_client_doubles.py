"""Doubles through the ``svizzera`` command: ``create --teams`` from a players file whose
lines name two players, played with ``svizzera result``, both players named in the standings."""

from __future__ import annotations

from pathlib import Path

from test_client_cli import Run, as_json
from test_client_cli import svizzera as svizzera  # the fixture

from svizzera_client.models import StandingsRead


def test_a_doubles_evening_from_a_file_of_teams(svizzera: Run, tmp_path: Path) -> None:
    teams = tmp_path / "teams.txt"
    teams.write_text("Rossi / Bianchi\nVerdi / Neri\nGallo / Ricci\nConte / Fabbri\n")
    created = as_json(svizzera("create", str(teams), "--teams", "--seed", "2", "--json"))
    assert created["entry"] == "team"
    svizzera("round")
    svizzera("result", input="10-4\n" * 2)
    standings = StandingsRead.model_validate(as_json(svizzera("standings", "--json")))
    assert {r.name: r.members for r in standings.rows} == {
        "Rossi / Bianchi": ["Rossi", "Bianchi"],
        "Verdi / Neri": ["Verdi", "Neri"],
        "Gallo / Ricci": ["Gallo", "Ricci"],
        "Conte / Fabbri": ["Conte", "Fabbri"],
    }
    assert sorted(r.points for r in standings.rows) == [0, 0, 3, 3]
    assert "Gallo · Ricci" in svizzera("standings").stdout
