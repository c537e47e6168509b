"""A top cut through the ``svizzera`` command: created with its size and third-place match,
drawn by ``svizzera bracket``, played stage by stage with ``svizzera result``."""

from __future__ import annotations

from pathlib import Path

from test_client_cli import Run, as_json
from test_client_cli import svizzera as svizzera  # the fixture

from svizzera_client.models import BracketRead, FinalPhaseRead


def test_a_top_6_with_a_third_place_match(svizzera: Run, tmp_path: Path) -> None:
    players = tmp_path / "eight.txt"
    players.write_text("".join(f"Player {i}\n" for i in range(1, 9)))
    created = as_json(
        svizzera(
            "create", str(players), "--rounds", "2", "--final-phase", "top_cut",
            "--top-cut-size", "6", "--third-place", "--seed", "5", "--json",
        )
    )  # fmt: skip
    assert (created["settings"]["top_cut_size"], created["settings"]["third_place"]) == (6, True)
    for _ in range(2):
        svizzera("round")
        svizzera("result", input="2-1\n" * 4)
    quarterfinals = as_json(svizzera("final", "--json"))["matches"]
    assert [m["stage"] for m in quarterfinals] == ["quarterfinal", "quarterfinal"]
    drawn = BracketRead.model_validate(as_json(svizzera("bracket", "--json")))
    assert [[s.label for s in m.slots] for m in drawn.rounds[1].matches] == [
        ["Seed 1", "Winner of match 1"],
        ["Seed 2", "Winner of match 2"],
    ]
    shown = svizzera("bracket").stdout
    assert "Quarterfinal" in shown and "(Winner of match 1)" in shown

    svizzera("result", input="0-1\n0-1\n")  # the quarterfinals: the lower seeds win
    semifinals = as_json(svizzera("result", "--json", input="3-0\n1-1 away penalties\n"))
    assert [m["stage"] for m in semifinals] == ["semifinal", "semifinal"]
    svizzera("result", "1", "2-0")  # the final
    svizzera("result", "2", "0-2")  # the third-place match
    final = FinalPhaseRead.model_validate(as_json(svizzera("final", "--show", "--json")))
    assert final.final_ranking is not None
    seeds = [s.player_id for s in drawn.seeds if s.player_id is not None]
    assert len(seeds) == 6
    assert sorted(p.player_id for p in final.final_ranking[:6]) == sorted(seeds)
    drawn = BracketRead.model_validate(as_json(svizzera("bracket", "--json")))
    champion = drawn.rounds[-1].matches[0]
    assert [s.won for s in champion.slots].count(True) == 1
    assert final.final_ranking[0].player_id in [s.player_id for s in champion.slots if s.won]
