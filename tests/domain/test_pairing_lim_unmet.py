"""``lim``'s unmet opponents as bit sets, against the sets they stand for.

Either record counts (a pair listed by one side only has met); the sparse walk and the dense
transpose must give the same rows; the transpose is a transpose.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.pairing.base import PairingHistory
from app.domain.pairing.lim import unmet as lim_unmet
from app.domain.pairing.lim.unmet import transposed, unmet_rows, without
from app.domain.types import PlayerId


def expected_rows(players: list[PlayerId], history: PairingHistory) -> list[int]:
    rows = []
    for r, p in enumerate(players):
        row = 0
        for c, q in enumerate(players):
            if c != r and not (history.have_played(p, q) or history.have_played(q, p)):
                row |= 1 << c
        rows.append(row)
    return rows


@settings(max_examples=200, deadline=None)
@given(
    size=st.integers(min_value=0, max_value=40),
    density=st.floats(min_value=0, max_value=1),
    one_sided=st.floats(min_value=0, max_value=0.3),
    seed=st.integers(min_value=0, max_value=2**32),
    dense=st.sampled_from([0, 64, 10**9]),
)
def test_rows_are_the_pairs_neither_record_lists(
    size: int, density: float, one_sided: float, seed: int, dense: int
) -> None:
    rng = random.Random(seed)
    ids = [PlayerId(100 + 7 * i) for i in range(size)]
    opponents: dict[PlayerId, set[PlayerId]] = {p: set() for p in ids}
    for i, p in enumerate(ids):
        for q in ids[i + 1 :]:
            if rng.random() < density:
                opponents[p].add(q)
                if rng.random() >= one_sided:  # else only p's record lists the pair
                    opponents[q].add(p)
        if rng.random() < 0.2:  # someone not in the field (a bye this round, withdrawn)
            opponents[p].add(PlayerId(1))
    history = PairingHistory({p: frozenset(s) for p, s in opponents.items() if s})
    field = rng.sample(ids, k=size)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lim_unmet, "DENSE", dense)
        assert unmet_rows(field, history) == expected_rows(field, history)


def test_without_drops_a_player_and_renumbers_the_ranks_below() -> None:
    rows = [0b0110, 0b0101, 0b0011, 0b0000]
    assert without(rows, 1) == [0b010, 0b001, 0b000]


@pytest.mark.parametrize("size", [0, 1, 2, 7, 8, 9, 16, 17, 33, 100])
def test_transposed_swaps_rows_and_columns(size: int) -> None:
    rng = random.Random(size)
    rows = [rng.getrandbits(size) if size else 0 for _ in range(size)]
    columns = [sum((rows[r] >> c & 1) << r for r in range(size)) for c in range(size)]
    assert transposed(rows) == columns
