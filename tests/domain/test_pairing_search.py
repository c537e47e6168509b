"""The pruned search in order (``search_order.first_round``) against the unpruned reference.

The search tests each step with an exact matching test and never goes back; the reference
(``nearest_reference.pairings_in_search_order``) lists every rematch-free pairing in the spec's
depth-first order. They must agree on the first round, whatever the history: sparse, dense, or
near a round robin (the long ``swiss_rounds`` overrides). Then the whole of ``nearest`` is
checked on long overrides, where the look-ahead spans many later rounds.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.pairing.base import PairingContext
from app.domain.pairing.nearest.engine import (
    FALLBACK,
    LOOKAHEAD_IGNORED,
    LOOKAHEAD_UNPROVEN,
    pair_round,
)
from app.domain.pairing.search_order import first_round, unplayed_graph
from app.domain.types import RoundNumber
from tests.domain.nearest_reference import Edge, expected_round, pairings_in_search_order
from tests.domain.test_pairing_nearest_properties import POINTS, _by_rank, _history, _ranked


@st.composite
def histories(draw: st.DrawFn, *, max_size: int = 11) -> tuple[int, frozenset[Edge]]:
    """A field and its earlier pairs: random pairs, or whole rounds up to a full round robin."""
    size = draw(st.integers(min_value=1, max_value=max_size))
    if draw(st.booleans()):
        pairs = list(itertools.combinations(range(size), 2))
        present = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
        return size, frozenset(frozenset(p) for p, keep in zip(pairs, present, strict=True) if keep)
    played: set[Edge] = set()
    for _ in range(draw(st.integers(min_value=0, max_value=size))):
        players = draw(st.permutations(range(size)))
        played |= {frozenset(players[i : i + 2]) for i in range(0, size - 1, 2)}
    return size, frozenset(played)


def played_sets(size: int, played: frozenset[Edge]) -> list[set[int]]:
    sets: list[set[int]] = [set() for _ in range(size)]
    for a, b in map(tuple, played):
        sets[a].add(b)
        sets[b].add(a)
    return sets


def byes(size: int) -> list[int | None]:
    return list(range(size)) if size % 2 else [None]


@settings(max_examples=400, deadline=None)
@given(history=histories())
def test_the_pruned_search_finds_the_first_round_in_search_order(
    history: tuple[int, frozenset[Edge]],
) -> None:
    size, played = history
    unplayed = unplayed_graph(played_sets(size, played))
    for bye in byes(size):
        players = [v for v in range(size) if v != bye]
        expected = next(pairings_in_search_order(players, played), None)

        found = first_round(unplayed, bye)

        assert (found.pairs if found else None) == expected


def pairs_allowed_by(
    forbidden: frozenset[tuple[int, int]], pairs: Sequence[tuple[int, int]]
) -> bool:
    """A test of partial rounds that is not monotone: it refuses some pairs only when the
    round has already more than one pair, so the search has to go back."""
    return len(pairs) <= 1 or not any(pair in forbidden for pair in pairs)


@settings(max_examples=300, deadline=None)
@given(history=histories(max_size=10), seed=st.integers(min_value=0, max_value=2**16))
def test_with_a_viable_test_the_search_takes_the_first_round_all_of_whose_steps_pass(
    history: tuple[int, frozenset[Edge]], seed: int
) -> None:
    size, played = history
    rng = random.Random(seed)
    forbidden = frozenset(p for p in itertools.combinations(range(size), 2) if rng.random() < 0.3)
    unplayed = unplayed_graph(played_sets(size, played))
    for bye in byes(size):
        players = [v for v in range(size) if v != bye]
        expected = next(
            (
                pairs
                for pairs in pairings_in_search_order(players, played)
                if all(pairs_allowed_by(forbidden, pairs[:k]) for k in range(len(pairs) + 1))
            ),
            None,
        )

        found = first_round(
            unplayed, bye, viable=lambda pairs, _bye: pairs_allowed_by(forbidden, pairs)
        )

        assert (found.pairs if found else None) == expected


@settings(max_examples=250, deadline=None)
@given(history=histories(max_size=8), data=st.data())
def test_nearest_agrees_with_the_reference_on_long_overrides(
    history: tuple[int, frozenset[Edge]], data: st.DataObject
) -> None:
    """Up to a full round robin of later rounds: the look-ahead spans every round left."""
    size, played = history
    if size < 2:
        return
    most = size - 1 if size % 2 == 0 else size
    later = data.draw(st.integers(min_value=0, max_value=most))
    had_bye = data.draw(st.lists(st.booleans(), min_size=size, max_size=size))
    bye_counts = [int(b) for b in had_bye]
    order = _ranked(bye_counts)
    context = PairingContext(RoundNumber(3), later, "long", POINTS)

    pairing = pair_round(order, _history(order, played), context)
    expected = expected_round(bye_counts, played, later)

    assert LOOKAHEAD_UNPROVEN not in pairing.path  # the budget is ample at this size
    assert _by_rank(order, pairing) == expected.pairs
    bye = None if pairing.bye is None else [e.id for e in order].index(pairing.bye)
    assert bye == expected.bye
    assert (FALLBACK in pairing.path) == (expected.kind == "fallback")
    assert (LOOKAHEAD_IGNORED in pairing.path) == (expected.kind == "ignored")
