"""How many rounds the Dutch rules are sure to pair (``chess.sure_rounds``): ⌈N / 2⌉, by
Dirac's theorem on the players not yet met (C1), the PAB counted as one more player whom
everybody without a PAB may meet (C2)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.chess import sure_rounds
from app.domain.pairing.matching import Matching


def test_sure_rounds_worked_by_hand() -> None:
    """Even N: round r leaves N − r possible opponents, at least N / 2 up to r = N / 2. Odd N:
    N + 1 with the PAB, N − r + 1 possible opponents, at least (N + 1) / 2 up to r = (N + 1) / 2."""
    assert [sure_rounds(n) for n in (2, 3, 4, 5, 8, 9, 16, 63, 64)] == [1, 2, 2, 3, 4, 5, 8, 32, 32]


@settings(max_examples=80, deadline=None)
@given(st.integers(2, 40), st.integers(0, 10**9))
def test_every_round_up_to_the_sure_ones_can_be_paired(players: int, seed: int) -> None:
    """Whatever pairings came before (random ones without a second meeting, one PAB each),
    each of the first ``sure_rounds`` rounds has a pairing of everybody with a new opponent,
    the PAB (vertex ``players``) to somebody who has not had it."""
    rng = random.Random(seed)
    bye = players  # the PAB as one more player, for an odd field
    vertices = list(range(players + players % 2))
    met: set[frozenset[int]] = set()
    had_bye: set[int] = set()

    def allowed(a: int, b: int) -> bool:
        if bye in (a, b):
            return (b if a == bye else a) not in had_bye
        return frozenset((a, b)) not in met

    for _ in range(sure_rounds(players)):
        order = rng.sample(vertices, len(vertices))
        graph = [
            sum(1 << j for j, w in enumerate(order) if w != v and allowed(v, w)) for v in order
        ]
        matching = Matching(graph, (1 << len(order)) - 1)
        assert matching.perfect
        for i, j in enumerate(matching.mate):
            a, b = order[i], order[j]
            if bye in (a, b):
                had_bye.add(b if a == bye else a)
            else:
                met.add(frozenset((a, b)))
