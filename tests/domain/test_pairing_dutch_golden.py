"""Every round of the shared reference tournaments, paired exactly as bbpPairings v6.0.0 did.

``tests/data/dutch`` holds 45 tournaments (8 to 1,000 players) paired round by round by the
FIDE-endorsed bbpPairings under the 2026 rules. Each round *r* is paired from rounds 1..r−1 and
must give the file's boards (White and Black) and pairing-allocated bye, every one of them. The
1,000-player file belongs to the benchmark (``bench/bench_pairing_dutch.py``).
"""

from __future__ import annotations

import pytest

from app.domain.pairing.dutch import pair_dutch
from tests.domain.dutch_reference import GOLDEN_FILES, round_input, round_result, rounds


def test_the_golden_set_is_the_44_files() -> None:
    assert len(GOLDEN_FILES) == 44


@pytest.mark.parametrize("name", GOLDEN_FILES)
def test_every_round_is_paired_as_the_reference(name: str) -> None:
    wrong = []
    for number in range(1, rounds(name) + 1):
        pairing = pair_dutch(round_input(name, number))
        if (frozenset(pairing.boards), pairing.bye) != round_result(name, number):
            wrong.append(number)
    assert wrong == []
