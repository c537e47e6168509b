"""The checker (``app.domain.checker``): every round of the shared reference tournaments paired
again gives the file's round; a file edited by hand (two boards' opponents swapped, a board's
colours turned, the bye moved) is caught in that round, with both pairings."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from app.domain.checker import check_rounds
from app.domain.deadline import Deadline
from app.domain.errors import PairingImpossible, PairingTimeout
from app.domain.forbidden import PairKind, TeamRule
from app.domain.matches import MatchId
from app.domain.pairing.dutch import round as dutch_round_module
from app.domain.pairing.dutch.types import DutchInput
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.trf import TrfColour, TrfDocument, TrfGame, TrfPlayer, TrfResult
from app.domain.trf_import import import_trf
from app.domain.types import PairingSystem, PlayerId, Result, RoundNumber
from tests.domain.dutch_reference import GOLDEN_PARAMS, document, round_result, rounds
from tests.domain.systems import ONE_AGAINST_ONE

SMALL = "dutch_p0012_r07_s101.trf"


def checked(doc: TrfDocument) -> Tournament:
    return import_trf(doc, seed=1).tournament


def boards(doc: TrfDocument, number: int) -> list[tuple[int, int]]:
    """Round ``number``'s games as (White, Black) starting ranks, by White's rank."""
    return sorted(round_result_of(doc, number)[0])


def round_result_of(doc: TrfDocument, number: int) -> tuple[set[tuple[int, int]], int | None]:
    games = set()
    bye = None
    for p in doc.players:
        game = p.games[number - 1]
        if game is not None and game.opponent is not None and game.colour is TrfColour.WHITE:
            games.add((p.start_number, game.opponent))
        elif game is not None and game.result is TrfResult.PAIRING_ALLOCATED_BYE:
            bye = p.start_number
    return games, bye


def edited(doc: TrfDocument, number: int, blocks: dict[int, TrfGame]) -> TrfDocument:
    """``doc`` with the round-``number`` blocks of the players ``blocks`` names replaced."""
    records = []
    for record in doc.records:
        if isinstance(record, TrfPlayer) and record.start_number in blocks:
            games = list(record.games)
            games[number - 1] = blocks[record.start_number]
            record = replace(record, games=tuple(games))
        records.append(record)
    return TrfDocument(tuple(records))


def block(doc: TrfDocument, start: int, number: int) -> TrfGame:
    game = next(p for p in doc.players if p.start_number == start).games[number - 1]
    assert game is not None
    return game


@pytest.mark.parametrize("name", GOLDEN_PARAMS)
def test_every_reference_round_is_the_one_the_system_gives(name: str) -> None:
    report = check_rounds(checked(document(name)))
    assert report.system is PairingSystem.DUTCH
    assert (report.rounds, report.rounds_checked) == (rounds(name), rounds(name))
    assert report.differences == ()
    assert report.unchecked_from is None


def test_two_boards_with_swapped_opponents_are_named_with_both_pairings() -> None:
    """The last round's first two boards, a–b and c–d, written as a–d and c–b (each keeps
    their colour and result): that round differs, and only that one."""
    doc = document(SMALL)
    last = rounds(SMALL)
    (a, b), (c, d) = boards(doc, last)[:2]
    swapped = edited(
        doc,
        last,
        {
            a: replace(block(doc, a, last), opponent=d),
            d: replace(block(doc, d, last), opponent=a),
            c: replace(block(doc, c, last), opponent=b),
            b: replace(block(doc, b, last), opponent=c),
        },
    )
    report = check_rounds(checked(swapped))
    assert report.rounds_checked == last
    [difference] = report.differences
    assert difference.number == last
    recorded, system = difference.recorded, difference.system
    assert system is not None
    ids = {p.start_number: p.id for p in checked(doc).players.values()}
    assert {(ids[a], ids[d]), (ids[c], ids[b])} <= set(recorded.boards)
    assert {(ids[a], ids[b]), (ids[c], ids[d])} <= set(system.boards)
    assert set(recorded.boards) - set(system.boards) == {(ids[a], ids[d]), (ids[c], ids[b])}
    assert len(recorded.boards) == len(system.boards) == len(boards(doc, last))
    assert difference.other_opponents == tuple(sorted(ids[s] for s in (a, b, c, d)))
    assert difference.swapped_colours == ()
    assert difference.refusal is None


def test_a_board_with_its_colours_turned_is_a_colour_difference() -> None:
    doc = document(SMALL)
    number = 3
    (a, b) = boards(doc, number)[0]
    turned = edited(
        doc,
        number,
        {
            a: replace(block(doc, a, number), colour=TrfColour.BLACK),
            b: replace(block(doc, b, number), colour=TrfColour.WHITE),
        },
    )
    report = check_rounds(checked(turned))
    assert report.differences[0].number == number
    first = report.differences[0]
    assert first.other_opponents == ()
    assert first.swapped_colours == ((PlayerId(b), PlayerId(a)),)


def test_the_bye_given_to_another_player_is_an_opponent_difference() -> None:
    """Round 1 of a 9-player file: the PAB and White of the last board change places."""
    name = "dutch_p0009_r05_s101.trf"
    doc = document(name)
    games, bye = round_result_of(doc, 1)
    assert bye is not None
    white, black = max(games)
    moved = edited(
        doc,
        1,
        {
            bye: replace(block(doc, white, 1), opponent=black),
            black: replace(block(doc, black, 1), opponent=bye),
            white: TrfGame(None, TrfColour.NONE, TrfResult.PAIRING_ALLOCATED_BYE),
        },
    )
    report = check_rounds(checked(moved))
    first = report.differences[0]
    assert first.number == 1
    assert first.recorded.byes == (PlayerId(white),)
    assert first.system is not None and first.system.byes == (PlayerId(bye),)
    # the bye's and the board's players: black meets the one who had the bye
    assert set(first.other_opponents) == {PlayerId(white), PlayerId(bye), PlayerId(black)}
    assert round_result(name, 1)[1] == PlayerId(bye)


def test_nothing_of_the_tournament_changes() -> None:
    tournament = checked(document(SMALL))
    before = (dict(tournament.players), list(tournament.rounds), dict(tournament.matches))
    check_rounds(tournament)
    assert (tournament.players, tournament.rounds, tournament.matches) == before


def test_a_round_after_a_missing_result_is_not_checked() -> None:
    tournament = checked(document(SMALL))
    match = tournament.round_matches(4)[0]
    tournament.matches[match.id] = replace(match, result=None)
    report = check_rounds(tournament)
    assert (report.rounds, report.rounds_checked) == (7, 4)
    assert report.unchecked_from == RoundNumber(5)
    assert report.differences == ()


def test_a_round_the_system_cannot_pair_is_reported_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The system finding no pairing for a round that was paired (a manual round, say) is a
    difference without the system's pairing, with the refusal's words; the check goes on."""
    real = dutch_round_module.dutch_round

    def refuse_round_3(round_input: DutchInput, *, next_id: MatchId, deadline: Deadline) -> Any:
        if round_input.round_number == 3:
            raise PairingImpossible("no pairing satisfies C1-C3", players=[PlayerId(1)])
        return real(round_input, next_id=next_id, deadline=deadline)

    monkeypatch.setattr(dutch_round_module, "dutch_round", refuse_round_3)
    tournament = checked(document(SMALL))
    report = check_rounds(tournament)
    assert report.rounds_checked == 7
    [difference] = report.differences
    assert difference.number == 3 and difference.system is None
    assert difference.refusal is not None and difference.refusal.startswith("no pairing")
    assert tournament.players[PlayerId(1)].name in difference.refusal
    assert set(difference.recorded.boards) == {
        (m.home, m.away) for m in tournament.round_matches(3)
    }
    assert len(difference.other_opponents) == 2 * len(difference.recorded.boards) + len(
        difference.recorded.byes
    )


def test_the_deadline_bounds_the_whole_check_and_names_the_round() -> None:
    clock = iter(range(10_000))
    deadline = Deadline.after(3, clock=lambda: float(next(clock)), setting="SVIZZERA_CHECK_TIMEOUT")
    with pytest.raises(PairingTimeout, match="SVIZZERA_CHECK_TIMEOUT") as refused:
        check_rounds(checked(document(SMALL)), deadline=deadline)
    assert str(refused.value).startswith("the check ran out of time at round ")


def played(system: PairingSystem, rounds: int, *, seed: int, late_rating: int = 0) -> Tournament:
    """13 players; a late entry before rounds 2 and 3 (rated ``late_rating``: in ``dutch`` a
    high one renumbers everybody below), player 5 withdrawn after round 3, random results."""
    rng = random.Random(seed)
    t = Tournament.create(
        Settings(seed=seed, pairing=system, swiss_rounds=rounds),
        [NewPlayer(f"P{i:02d}", 2000 - 10 * i) for i in range(1, 14)],
    )
    for number in range(1, rounds + 1):
        if number in (2, 3):
            t.add_player(NewPlayer(f"Late {number}", late_rating or None))
        if number == 4:
            t.withdraw_player(PlayerId(5))
        t.generate_round()
        for m in t.round_matches(number):
            t.record_result(m.id, rng.choice([Result(1, 0), Result(0, 1), Result(0, 0)]))
    return t


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("system", ONE_AGAINST_ONE)
def test_late_entries_and_withdrawals_are_paired_again_as_they_stood(
    system: PairingSystem, seed: int
) -> None:
    """Each round is paired again with the field of its time: a late entry from their first
    round on (in ``dutch`` numbered among the others, who move up), a withdrawal after it."""
    t = played(system, 6, seed=seed, late_rating=2500)
    assert t.players[PlayerId(14)].start_number == 1 or system is not PairingSystem.DUTCH
    report = check_rounds(t)
    assert (report.rounds_checked, report.differences) == (6, ())


@pytest.mark.parametrize("system", [PairingSystem.NEAREST, PairingSystem.LIM])
def test_after_an_early_final_phase_the_rounds_are_paired_with_the_rounds_planned(
    system: PairingSystem,
) -> None:
    """The look-ahead of a round knows the rounds planned then, not the fewer played."""
    rng = random.Random(3)
    t = Tournament.create(Settings(seed=3, pairing=system), [NewPlayer(f"P{i}") for i in range(12)])
    for number in (1, 2):
        t.generate_round()
        for m in t.round_matches(number):
            t.record_result(m.id, Result(rng.randrange(3), rng.randrange(3)))
    t.start_final_phase()
    assert (t.format.swiss_rounds, t.planned_format.swiss_rounds) == (2, 4)
    report = check_rounds(t)
    assert (report.rounds, report.rounds_checked, report.differences) == (2, 2, ())


@pytest.mark.parametrize("system", ONE_AGAINST_ONE)
def test_forbidden_pairs_and_teams_are_kept_apart_when_pairing_again(
    system: PairingSystem,
) -> None:
    """Players 1–2 hard, 3–4 soft, 5 and 6 of one team kept apart: every round paired again
    keeps them as the rounds recorded did, so nothing differs; without the pairs it would."""
    rng = random.Random(8)
    t = Tournament.create(
        Settings(seed=8, pairing=system, swiss_rounds=4, avoid_same_team=TeamRule.HARD),
        [NewPlayer(f"P{i:02d}", 2000 - 10 * i) for i in range(1, 11)],
    )
    t.forbid_pair(PlayerId(1), PlayerId(2), PairKind.HARD)
    t.forbid_pair(PlayerId(3), PlayerId(4), PairKind.SOFT)
    t.set_team(PlayerId(5), "Club")
    t.set_team(PlayerId(6), "Club")
    for number in range(1, 5):
        t.generate_round()
        for m in t.round_matches(number):
            t.record_result(m.id, rng.choice([Result(1, 0), Result(0, 1), Result(0, 0)]))
    assert check_rounds(t).differences == ()
    t.forbidden_pairs.clear()
    t.set_team(PlayerId(5), None)
    assert check_rounds(t).differences != ()
