"""A tournament written as a TRF (``app.domain.trf_export``): every round's blocks, the tags."""

from __future__ import annotations

from app.domain.formats import FinalPhaseKind
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.trf import TrfColour, TrfGame, TrfResult, read_trf, write_trf
from app.domain.trf_export import export_trf
from app.domain.types import Forfeit, PlayerId, Result
from tests.domain.evening import new, play_round, stronger_wins


def test_games_forfeits_and_the_pab_become_blocks() -> None:
    t = new(5, final_phase=FinalPhaseKind.NONE, swiss_rounds=3)
    t.generate_round()
    first, second = t.round_matches(1)
    t.record_result(first.id, Result(2, 1))
    t.record_result(second.id, Result(0, 0, forfeit=Forfeit.AWAY))
    document = read_trf(write_trf(export_trf(t, name="Friday")))
    by_number = {p.start_number: p for p in document.players}
    start = {pid: p.start_number for pid, p in t.players.items()}
    assert by_number[start[first.home]].games == (
        TrfGame(start[first.away], TrfColour.WHITE, TrfResult.WIN),
    )
    assert by_number[start[first.away]].games == (
        TrfGame(start[first.home], TrfColour.BLACK, TrfResult.LOSS),
    )
    assert by_number[start[second.home]].games[0] == TrfGame(
        start[second.away], TrfColour.WHITE, TrfResult.FORFEIT_WIN
    )
    assert by_number[start[second.away]].games[0] == TrfGame(
        start[second.home], TrfColour.BLACK, TrfResult.FORFEIT_LOSS
    )
    (bye,) = t.rounds[0].byes
    assert by_number[start[bye]].games == (
        TrfGame(None, TrfColour.NONE, TrfResult.PAIRING_ALLOCATED_BYE),
    )
    assert document.name == "Friday"
    assert document.total_rounds == 3
    assert document.tag("092") == "SVIZZERA_NEAREST"
    # Svizzera's default table (3, 1, 0, bye 3) is not TRF's default: it is written out
    assert document.tag("162") == " W 3.0    D 1.0    L 0.0    P 3.0"


def test_points_ranks_and_initial_colour() -> None:
    t = new(4, final_phase=FinalPhaseKind.NONE, swiss_rounds=2)
    play_round(t, stronger_wins(t))
    play_round(t, lambda m: Result(1, 1))
    document = export_trf(t, name="Evening")
    rows = {row.player_id: row for row in t.standings()}
    ranking = t.final_ranking()
    assert ranking is not None
    for player in document.players:
        pid = next(p.id for p in t.players.values() if p.start_number == player.start_number)
        assert player.points == rows[pid].points
        assert player.rank == ranking.index(pid) + 1
        assert len(player.games) == 2
    top = min(t.round_matches(1), key=lambda m: min(m.home, m.away))
    top_is_home = t.players[top.home].start_number < t.players[top.away].start_number
    assert document.initial_colour is (TrfColour.WHITE if top_is_home else TrfColour.BLACK)


def test_a_round_being_played_is_left_out_of_the_blocks_and_the_points() -> None:
    t = new(4, final_phase=FinalPhaseKind.NONE, swiss_rounds=3)
    play_round(t, stronger_wins(t))
    after_one = {row.player_id: row.points for row in t.standings()}
    t.generate_round()
    t.record_result(t.round_matches(2)[0].id, Result(1, 0))
    document = export_trf(t, name="Evening")
    assert document.rounds_played == 1
    assert document.total_rounds == 3
    start = {p.start_number: pid for pid, p in t.players.items()}
    assert {start[p.start_number]: p.points for p in document.players} == after_one
    assert after_one != {row.player_id: row.points for row in t.standings()}


def test_a_withdrawal_leaves_blank_blocks_then_absences_to_come() -> None:
    t = new(6, final_phase=FinalPhaseKind.NONE, swiss_rounds=4)
    play_round(t, stronger_wins(t))
    t.withdraw_player(PlayerId(6))
    play_round(t, stronger_wins(t))
    t.withdraw_player(PlayerId(5))
    document = read_trf(write_trf(export_trf(t, name="Evening")))
    by_number = {p.start_number: p for p in document.players}
    sixth, fifth = t.players[PlayerId(6)].start_number, t.players[PlayerId(5)].start_number
    assert len(by_number[sixth].games) == 1  # round 2 blank: not paired
    assert len(by_number[fifth].games) == 2
    absences = [r.value for r in document.records if getattr(r, "code", None) == "240"]
    low, high = sorted((fifth, sixth))
    assert absences == [f"Z 003 {low:>4} {high:>4}", f"Z 004 {low:>4} {high:>4}"]


def test_long_names_are_cut_to_the_column_and_big_ratings_left_blank() -> None:
    t = Tournament.create(Settings(seed=1), [NewPlayer("A" * 40, 12000), NewPlayer("Bo", 1800)])
    document = export_trf(t, name="Names")
    first, second = document.players
    assert (first.name, first.rating) == ("A" * 33, None)
    assert (second.name, second.rating) == ("Bo", 1800)
    assert document.rounds_played == 0
    assert document.initial_colour is None
