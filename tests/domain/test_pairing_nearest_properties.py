"""Pairing ``nearest``: the properties ``pairing-nearest.md`` asks the tests to pin down.

The engine is checked against the brute-force reading of the spec in ``nearest_reference`` on
small fields, and simulated tournaments (order: points, then start number) check the
invariants on fields of up to 40 players.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.pairing.base import Entrant, PairingContext, PairingHistory, RoundPairing
from app.domain.pairing.nearest.engine import FALLBACK, LOOKAHEAD_IGNORED, pair_round
from app.domain.types import PlayerId, PointsTable, RoundNumber, Score
from tests.domain.nearest_reference import (
    Edge,
    accepted_with,
    expected_round,
    rematch_free_with,
)

POINTS = PointsTable.default()


def _ranked(byes: Sequence[int]) -> list[Entrant]:
    # Ids deliberately unlike ranks, so that index/id mix-ups show.
    return [Entrant(PlayerId(100 + 7 * r), Score(0), b, r + 1) for r, b in enumerate(byes)]


def _history(order: Sequence[Entrant], played: frozenset[Edge]) -> PairingHistory:
    opponents: dict[PlayerId, set[PlayerId]] = {}
    for edge in played:
        a, b = (order[i].id for i in edge)
        opponents.setdefault(a, set()).add(b)
        opponents.setdefault(b, set()).add(a)
    return PairingHistory({p: frozenset(o) for p, o in opponents.items()})


def _by_rank(order: Sequence[Entrant], pairing: RoundPairing) -> tuple[tuple[int, int], ...]:
    rank = {e.id: i for i, e in enumerate(order)}
    return tuple((rank[p.higher], rank[p.lower]) for p in pairing.pairs)


def _random_state(rng: random.Random) -> tuple[list[int], frozenset[Edge], int]:
    n = rng.randint(1, 10)
    if rng.random() < 0.5:
        density = rng.random() * 0.8
        edges = {
            frozenset((a, b))
            for a, b in itertools.combinations(range(n), 2)
            if rng.random() < density
        }
    else:  # a history made of whole rounds, as in a real tournament
        edges = set()
        for _ in range(rng.randint(0, n - 1)):
            players = list(range(n))
            rng.shuffle(players)
            edges |= {frozenset(players[i : i + 2]) for i in range(0, n - 1, 2)}
    byes = [1 if rng.random() < 0.3 else 0 for _ in range(n)]
    return byes, frozenset(edges), rng.randint(0, 4)


def test_engine_agrees_with_the_brute_force_reading_of_the_spec() -> None:
    rng = random.Random(20261129)
    kinds = {"accepted": 0, "ignored": 0, "fallback": 0}
    for _ in range(4000):
        byes, played, later = _random_state(rng)
        order = _ranked(byes)
        context = PairingContext(RoundNumber(3), later, "ref", POINTS)

        pairing = pair_round(order, _history(order, played), context)
        expected = expected_round(byes, played, later)

        assert _by_rank(order, pairing) == expected.pairs, (byes, sorted(map(sorted, played)))
        bye = None if pairing.bye is None else [e.id for e in order].index(pairing.bye)
        assert bye == expected.bye
        assert (FALLBACK in pairing.path) == (expected.kind == "fallback")
        assert pairing.is_fallback == (expected.kind == "fallback")
        assert (LOOKAHEAD_IGNORED in pairing.path) == (expected.kind == "ignored")
        kinds[expected.kind] += 1
    # The sample must exercise every branch of the spec, not only the easy one.
    assert min(kinds.values()) >= 200, kinds


@dataclass
class Simulation:
    """A tiny tournament: order by points, then start number; random results."""

    size: int
    rounds: int
    seed: int
    points: list[int] = field(init=False)
    byes: list[int] = field(init=False)
    played: set[frozenset[int]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.points = [0] * self.size
        self.byes = [0] * self.size

    def order(self) -> list[Entrant]:
        ranked = sorted(range(self.size), key=lambda i: (-self.points[i], i))
        return [Entrant(PlayerId(i), Score(self.points[i]), self.byes[i], i + 1) for i in ranked]

    def history(self) -> PairingHistory:
        opponents: dict[PlayerId, set[PlayerId]] = {}
        for a, b in map(tuple, self.played):
            opponents.setdefault(PlayerId(a), set()).add(PlayerId(b))
            opponents.setdefault(PlayerId(b), set()).add(PlayerId(a))
        return PairingHistory({p: frozenset(o) for p, o in opponents.items()})

    def record(self, pairing: RoundPairing, outcomes: Sequence[int]) -> None:
        for pair, outcome in zip(pairing.pairs, outcomes, strict=False):
            self.played.add(frozenset((pair.higher, pair.lower)))
            self.points[pair.higher] += (POINTS.win, POINTS.draw, POINTS.loss)[outcome]
            self.points[pair.lower] += (POINTS.loss, POINTS.draw, POINTS.win)[outcome]
        if pairing.bye is not None:
            self.byes[pairing.bye] += 1
            self.points[pairing.bye] += POINTS.bye


def _check_round(sim: Simulation, order: list[Entrant], pairing: RoundPairing, later: int) -> None:
    ids = [e.id for e in order]
    seated = [p for pair in pairing.pairs for p in (pair.higher, pair.lower)]
    if pairing.bye is not None:
        seated.append(pairing.bye)
    assert sorted(seated) == sorted(ids)
    assert (pairing.bye is None) == (len(ids) % 2 == 0)
    rank = {pid: i for i, pid in enumerate(ids)}
    assert all(rank[p.higher] < rank[p.lower] for p in pairing.pairs)
    assert [rank[p.higher] for p in pairing.pairs] == sorted(rank[p.higher] for p in pairing.pairs)
    rematches = tuple(p for p in pairing.pairs if frozenset((p.higher, p.lower)) in sim.played)
    assert rematches == pairing.rematch_pairs
    assert pairing.is_fallback == (pairing.path == (FALLBACK,) or FALLBACK in pairing.path)
    if len(ids) > 10:
        return
    n = len(ids)
    played = frozenset(frozenset(rank[PlayerId(p)] for p in pair) for pair in sim.played)
    if pairing.is_fallback:
        assert not any(rematch_free_with(b, n, played) for b in _everyone(n))
    if pairing.bye is not None and order[rank[pairing.bye]].byes > 0:
        without = [i for i in range(n) if order[i].byes == 0]
        if LOOKAHEAD_IGNORED in pairing.path or pairing.is_fallback:
            assert not any(rematch_free_with(b, n, played) for b in without)
        else:
            assert not any(accepted_with(b, n, played, later) for b in without)


def _everyone(n: int) -> list[int | None]:
    return list(range(n)) if n % 2 else [None]


@settings(max_examples=300, deadline=None)
@given(
    size=st.integers(min_value=2, max_value=40),
    rounds=st.integers(min_value=2, max_value=9),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_simulated_tournaments_keep_the_invariants(size: int, rounds: int, seed: int) -> None:
    rounds = min(rounds, size - 1 if size % 2 == 0 else size)
    sim = Simulation(size, rounds, seed)
    rng = random.Random(seed)
    for number in range(1, rounds + 1):
        order, history = sim.order(), sim.history()
        context = PairingContext(RoundNumber(number), rounds - number, f"t{seed}", POINTS)
        pairing = pair_round(order, history, context)

        _check_round(sim, order, pairing, rounds - number)
        shuffled_history = PairingHistory(dict(reversed(list(history.opponents.items()))))
        assert pair_round(list(order), shuffled_history, context) == pairing
        sim.record(pairing, [rng.randrange(3) for _ in pairing.pairs])


def test_six_players_four_rounds_never_need_a_rematch() -> None:
    """Every result sequence (win, draw, loss in each match of rounds 1–3) of one draw."""
    tournaments = 0

    def play(sim: Simulation, number: int) -> None:
        nonlocal tournaments
        context = PairingContext(RoundNumber(number), 4 - number, "six", POINTS)
        pairing = pair_round(sim.order(), sim.history(), context)
        assert not pairing.is_fallback
        assert LOOKAHEAD_IGNORED not in pairing.path
        assert len(pairing.pairs) == 3
        if number == 4:
            tournaments += 1
            return
        for outcomes in itertools.product(range(3), repeat=3):
            after = Simulation(6, 4, 0)
            after.points, after.byes = list(sim.points), list(sim.byes)
            after.played = set(sim.played)
            after.record(pairing, outcomes)
            play(after, number + 1)

    play(Simulation(6, 4, 0), 1)
    assert tournaments == 27**3
