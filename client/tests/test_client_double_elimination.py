"""A double elimination through the ``svizzera`` command: created with its size and without the
reset, drawn by ``svizzera bracket`` side by side, played stage by stage with ``svizzera
result``."""

from __future__ import annotations

from pathlib import Path

from test_client_cli import Run, as_json
from test_client_cli import svizzera as svizzera  # the fixture

from svizzera_client.models import BracketRead, FinalPhaseRead


def test_a_double_elimination_of_4_without_the_reset(svizzera: Run, tmp_path: Path) -> None:
    players = tmp_path / "six.txt"
    players.write_text("".join(f"Player {i}\n" for i in range(1, 7)))
    created = as_json(
        svizzera(
            "create", str(players), "--rounds", "1", "--final-phase", "double_elimination",
            "--top-cut-size", "4", "--no-grand-final-reset", "--seed", "5", "--json",
        )
    )  # fmt: skip
    assert created["settings"]["final_phase"] == "double_elimination"
    assert created["settings"]["grand_final_reset"] is False
    svizzera("round")
    svizzera("result", input="2-1\n" * 3)
    opening = as_json(svizzera("final", "--json"))["matches"]
    assert [m["stage"] for m in opening] == ["winners_round_1", "winners_round_1"]
    drawn = BracketRead.model_validate(as_json(svizzera("bracket", "--json")))
    assert [(r.side, r.number) for r in drawn.rounds] == [
        ("winners", 1),
        ("winners", 2),
        ("losers", 1),
        ("losers", 2),
        ("grand_final", 1),
    ]
    shown = svizzera("bracket").stdout
    assert "Losers' round 1" in shown and "(Loser of match 1)" in shown
    final = None
    for _ in range(6):  # a stage at a time; the home side wins
        svizzera("result", input="2-1\n" * 2)
        final = FinalPhaseRead.model_validate(as_json(svizzera("final", "--show", "--json")))
        if final.final_ranking is not None:
            break
    assert final is not None and final.final_ranking is not None
    assert len(final.matches) == 6
    assert sorted(p.player_id for p in final.final_ranking[:4]) == sorted(
        s.player_id for s in drawn.seeds if s.player_id is not None
    )
