"""Forbidden pairs in every system (``docs/rules.md``, "Forbidden pairings"): hand-worked rounds
and properties on random tournaments, checked against a brute-force search for a pairing."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from itertools import combinations

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from app.domain.chess import initial_colour
from app.domain.errors import PairingImpossible
from app.domain.forbidden import PairKind, TeamRule
from app.domain.formats import FinalPhaseKind
from app.domain.pairing.by_standings import _history
from app.domain.pairing.constrained import SOFT_PAIRS_BROKEN, soft_order
from app.domain.pairing.dutch.criteria import Criteria
from app.domain.pairing.dutch.round import dutch_input
from app.domain.pairing.dutch.state import player_states
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import PairingSystem, PlayerId, Result, RoundNumber, Score
from tests.domain.evening import new, order, play_round, stronger_wins
from tests.domain.systems import ONE_AGAINST_ONE

Key = tuple[PlayerId, PlayerId]
P = PlayerId
SYSTEMS = ONE_AGAINST_ONE  # DYP refuses forbidden pairs


def key(a: PlayerId, b: PlayerId) -> Key:
    return (min(a, b), max(a, b))


def round_pairs(t: Tournament, number: int) -> set[Key]:
    return {key(m.home, m.away) for m in t.round_matches(number)}


def matchings(players: Sequence[PlayerId]) -> list[set[Key]]:
    """Every perfect matching of an even number of players."""
    if not players:
        return [set()]
    first, rest = players[0], players[1:]
    found = []
    for i, partner in enumerate(rest):
        for tail in matchings(rest[:i] + rest[i + 1 :]):
            found.append({key(first, partner), *tail})
    return found


def four_player_round_two(system: PairingSystem) -> tuple[Tournament, list[PlayerId], set[Key]]:
    """A 4-player tournament after round 1, its standings order and the plain round 2."""
    t = new(4, pairing=system, swiss_rounds=3, final_phase=FinalPhaseKind.NONE)
    play_round(t, stronger_wins(t))
    plain = copy.deepcopy(t)
    plain.generate_round()
    return t, order(t), round_pairs(plain, 2)


@pytest.mark.parametrize("system", SYSTEMS)
def test_a_hard_pair_sends_the_top_player_to_the_other_rematch_free_round(
    system: PairingSystem,
) -> None:
    """Round 1 was a perfect matching of the four, so round 2 has two rematch-free pairings:
    the plain one, and the other. Forbidding the top player's plain opponent leaves the other."""
    t, (top, *_), plain = four_player_round_two(system)
    (other,) = [m for m in matchings(order(t)) if not m & (plain | round_pairs(t, 1))]
    opponent = next(b if a == top else a for a, b in plain if top in (a, b))
    t.forbid_pair(top, opponent, PairKind.HARD)
    t.generate_round()
    assert round_pairs(t, 2) == other
    assert t.rounds[1].rematch_pairs == ()


@pytest.mark.parametrize("system", SYSTEMS)
def test_two_soft_pairs_that_cannot_both_be_kept_break_the_lower_one(
    system: PairingSystem,
) -> None:
    """Soft pairs: the top player with its plain opponent (better player 1st), and the pair of
    the other rematch-free round that leaves the top player out (better player 2nd at best).
    Each rematch-free round breaks one of them: the round keeps the top one apart."""
    t, ranked, plain = four_player_round_two(system)
    top = ranked[0]
    (other,) = [m for m in matchings(ranked) if not m & (plain | round_pairs(t, 1))]
    opponent = next(b if a == top else a for a, b in plain if top in (a, b))
    (lower,) = [pair for pair in other if top not in pair]
    t.forbid_pair(top, opponent, PairKind.SOFT)
    t.forbid_pair(*lower, PairKind.SOFT)
    t.generate_round()
    assert round_pairs(t, 2) == other  # the lower pair meets, the top one does not
    assert t.rounds[1].paths[0][1][-1] == SOFT_PAIRS_BROKEN
    assert SOFT_PAIRS_BROKEN not in t.rounds[0].paths[0][1]


def test_lim_round_one_keeps_top_v_bottom_unless_it_pairs_a_hard_pair() -> None:
    """Six players on 0 points: 1–4, 2–5, 3–6. A hard pair both of the top half (1–2) changes
    nothing; a hard 1–4 sends the group to rule 6: the permutations of S2 = (4, 5, 6) in
    lexicographic order, (4, 6, 5) still pairs 1–4, (5, 4, 6) does not: 1–5, 2–4, 3–6."""
    t = new(6, pairing=PairingSystem.LIM, swiss_rounds=3, final_phase=FinalPhaseKind.NONE)
    t.forbid_pair(P(1), P(2), PairKind.HARD)
    plain = copy.deepcopy(t)
    plain.generate_round()
    assert round_pairs(plain, 1) == {(1, 4), (2, 5), (3, 6)}
    t.forbid_pair(P(1), P(4), PairKind.HARD)
    t.generate_round()
    assert round_pairs(t, 1) == {(1, 5), (2, 4), (3, 6)}


@pytest.mark.parametrize("system", SYSTEMS)
def test_hard_pairs_that_leave_a_player_no_opponent_are_named(system: PairingSystem) -> None:
    t, ranked, _ = four_player_round_two(system)
    top = ranked[0]
    met = next(b if a == top else a for a, b in round_pairs(t, 1) if top in (a, b))
    others = [p for p in ranked if p not in (top, met)]
    for other in others:
        t.forbid_pair(top, other, PairKind.HARD)
    with pytest.raises(PairingImpossible) as refused:
        t.generate_round()
    assert sorted(f.players for f in refused.value.forbidden) == sorted(
        key(top, other) for other in others
    )
    assert top in refused.value.players
    assert "forbidden pairs in the way" in str(refused.value)
    assert t.current_round == 1


@pytest.mark.parametrize("system", SYSTEMS)
def test_hard_teams_are_never_paired_from_round_one(system: PairingSystem) -> None:
    t = Tournament.create(
        Settings(
            seed=5,
            pairing=system,
            swiss_rounds=3,
            final_phase=FinalPhaseKind.NONE,
            avoid_same_team=TeamRule.HARD,
        ),
        [NewPlayer(f"P{i}", 2000 - i, team="ABC"[i % 3]) for i in range(9)],
    )
    team = {p.id: p.team for p in t.players.values()}
    for _ in range(3):
        play_round(t, stronger_wins(t))
        number = t.current_round
        assert all(team[a] != team[b] for a, b in round_pairs(t, number))


# -- properties on random tournaments ---------------------------------------------------------


def dutch_allowed(t: Tournament, number: int) -> tuple[list[PlayerId], Callable[..., bool], set]:
    """Who is paired in round ``number`` of a ``dutch`` tournament, who may meet whom by C1
    and C3 (no forbidden pair: the caller adds those), and who may take the bye (C2)."""
    s = t.settings
    round_input = dutch_input(
        t.players.values(),
        [m for m in t.matches.values() if m.round is not None and m.round < number],
        t.rounds[: number - 1],
        total_rounds=t.format.swiss_rounds,
        initial=initial_colour(s.initial_colour, s.seed),
        points=s.points,
    )
    states = player_states(round_input)
    present = [states[p.id] for p in round_input.players if p.present]
    played = number - 1
    criteria = Criteria(
        present,
        played_rounds=played,
        last_round=number == t.format.swiss_rounds,
        top_line=Score(played * max(s.points.win, s.points.draw)),
        bye_score=None,
        played_ranks={},
    )
    index = {p.id: i for i, p in enumerate(present)}

    def allowed(a: PlayerId, b: PlayerId) -> bool:
        return criteria.allowed(index[a], index[b])

    return [p.id for p in present], allowed, {p.id for p in present if p.bye_eligible}


def standings_allowed(
    t: Tournament, number: int
) -> tuple[list[PlayerId], Callable[..., bool], set]:
    """``nearest``/``lim``: the players of round ``number``, rematch-free meetings, any bye."""
    players = [
        p.id for p in t.players.values() if p.in_round(RoundNumber(number)) and not p.withdrawn
    ]
    history = _history([m for m in t.matches.values() if m.round is not None and m.round < number])
    return players, lambda a, b: not history.have_played(a, b), set(players)


def pairable(
    players: Sequence[PlayerId],
    allowed: Callable[[PlayerId, PlayerId], bool],
    bye: set[PlayerId],
    apart: set[Key],
) -> bool:
    """Brute force: a round of ``players`` (one of ``bye`` out when odd) in which every pair
    is allowed and none is in ``apart``."""

    def ok(pairs: set[Key]) -> bool:
        return all(p not in apart and allowed(*p) for p in pairs)

    if len(players) % 2 == 0:
        return any(ok(m) for m in matchings(list(players)))
    return any(
        ok(m) for out in players if out in bye for m in matchings([p for p in players if p != out])
    )


@st.composite
def tournaments(draw: st.DrawFn, system: PairingSystem) -> tuple[Tournament, list[int]]:
    count = draw(st.integers(4, 8))
    rule = draw(st.sampled_from(TeamRule))
    t = Tournament.create(
        Settings(
            seed=draw(st.integers(0, 1000)),
            pairing=system,
            swiss_rounds=min(count - 1, 5),
            final_phase=FinalPhaseKind.NONE,
            avoid_same_team=rule,
        ),
        [
            NewPlayer(f"P{i}", 2000 - 10 * i, team=draw(st.sampled_from([None, "X", "Y"])))
            for i in range(count)
        ],
    )
    ids = sorted(t.players)
    for a, b in draw(
        st.lists(st.sampled_from(list(combinations(ids, 2))), max_size=6, unique=True)
    ):
        t.forbid_pair(a, b, draw(st.sampled_from(PairKind)))
    outcomes = draw(st.lists(st.integers(0, 2), min_size=40, max_size=40))
    return t, outcomes


def check_round(t: Tournament, number: int) -> None:
    constraints = t.constraints(RoundNumber(number))
    hard = {c.players for c in constraints.hard}
    met = round_pairs(t, number)
    assert not met & hard, "a hard forbidden pair was paired"
    if t.rounds[number - 1].rematch_pairs:
        return  # a marked fallback: no rematch-free round at all
    players, allowed, bye = (
        dutch_allowed(t, number)
        if t.settings.pairing is PairingSystem.DUTCH
        else standings_allowed(t, number)
    )
    place = {row.player_id: i for i, row in enumerate(before_round(t, number))}
    soft = soft_order(constraints.soft, place)
    for i, pair in enumerate(soft):
        if pair.players not in met:
            continue
        event("a soft pair met")
        kept_above = {p.players for p in soft[:i] if p.players not in met}
        assert not pairable(players, allowed, bye, hard | kept_above | {pair.players}), (
            f"soft pair {pair.players} met though a round kept it apart"
        )


def before_round(t: Tournament, number: int) -> tuple:
    """The standings the round was paired from."""
    earlier = Tournament(
        t.settings,
        t.players.values(),
        rounds=t.rounds[: number - 1],
        matches=[m for m in t.matches.values() if m.round is not None and m.round < number],
    )
    return earlier.standings()


RESULTS = (Result(1, 0), Result(0, 1), Result(1, 1))


@pytest.mark.parametrize("system", SYSTEMS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_hard_pairs_never_meet_and_soft_ones_only_when_no_round_keeps_them_apart(
    system: PairingSystem, data: st.DataObject
) -> None:
    t, outcomes = data.draw(tournaments(system))
    draws = iter(outcomes * 10)
    while t.current_round < t.format.swiss_rounds:
        number = t.current_round + 1
        try:
            t.generate_round()
        except PairingImpossible as refused:
            constraints = t.constraints(RoundNumber(number))
            event("refused, naming hard pairs" if refused.forbidden else "refused")
            if refused.forbidden:
                # the hard pairs stand in the way: without them the round pairs
                players, allowed, bye = (
                    dutch_allowed(t, number)
                    if system is PairingSystem.DUTCH
                    else standings_allowed(t, number)
                )
                hard = {c.players for c in constraints.hard}
                assert {f.players for f in refused.forbidden} <= hard
                assert not pairable(players, allowed, bye, hard)
            return
        check_round(t, number)
        for match in t.round_matches(number):
            t.record_result(match.id, RESULTS[next(draws)])
