"""The Dutch engine's matchings agree with brute force on small graphs."""

from __future__ import annotations

from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.pairing.dutch_completion import maximum_matching
from app.domain.pairing.dutch_matching import max_weight_matching

Edges = list[tuple[int, int, int]]


def _best(n: int, weight: dict[tuple[int, int], int], free: tuple[int, ...]) -> int:
    """The heaviest matching of ``free`` by trying every partner of the first vertex."""
    if len(free) < 2:
        return 0
    first, rest = free[0], free[1:]
    best = _best(n, weight, rest)
    for k, other in enumerate(rest):
        w = weight.get((first, other), 0)
        if w > 0:
            best = max(best, w + _best(n, weight, rest[:k] + rest[k + 1 :]))
    return best


@st.composite
def graphs(draw: st.DrawFn) -> tuple[int, Edges]:
    n = draw(st.integers(0, 9))
    pairs = [pair for pair in combinations(range(n), 2) if draw(st.booleans())]
    # Weights mix small values with packed criteria-like ones (a high field over a low one).
    weights = st.one_of(
        st.integers(1, 12),
        st.tuples(st.integers(1, 3), st.integers(0, 7)).map(lambda hl: (hl[0] << 80) + hl[1]),
    )
    return n, [(a, b, draw(weights)) for a, b in pairs]


@settings(max_examples=400, deadline=None)
@given(graphs())
def test_the_heaviest_matching_weighs_what_brute_force_finds(graph: tuple[int, Edges]) -> None:
    n, edges = graph
    mate = max_weight_matching(n, edges)
    weight = {(a, b): w for a, b, w in edges}
    total = 0
    for v, m in enumerate(mate):
        if m != -1:
            assert mate[m] == v
            total += weight[(v, m)] if v < m else 0
    assert total == _best(n, weight, tuple(range(n)))


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_maximum_matching_and_who_can_be_left_out(graph: tuple[int, Edges]) -> None:
    n, edges = graph
    present = {(a, b) for a, b, _ in edges}

    def allowed(a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in present

    matching = maximum_matching(range(n), allowed)
    unit = {pair: 1 for pair in present}
    assert matching.size == _best(n, unit, tuple(range(n)))
    assert all(allowed(a, b) for a, b in matching.mate.items())
    left_out = {
        v for v in range(n) if _best(n, unit, tuple(u for u in range(n) if u != v)) == matching.size
    }
    assert matching.exposable() == left_out
