"""Pairing ``nearest``: golden rounds worked by hand from ``pairing-nearest.md``.

Players are named by their rank before the round: player ``r`` has id ``r`` and start number
``r``, so ``(1, 3)`` reads "1st v 3rd".
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from app.domain.explanation import RoundExplanation
from app.domain.pairing.base import Entrant, PairingContext, PairingHistory, RoundPairing
from app.domain.pairing.nearest.engine import (
    BACKTRACK,
    DRAW,
    FALLBACK,
    LOOKAHEAD,
    LOOKAHEAD_IGNORED,
    SEARCH,
    SECOND_BYE,
    pair_round,
)
from app.domain.types import Pair, PlayerId, PointsTable, RoundNumber, Score


def field(size: int, *, byes: Iterable[int] = ()) -> list[Entrant]:
    had_bye = set(byes)
    return [Entrant(PlayerId(r), Score(0), 1 if r in had_bye else 0, r) for r in range(1, size + 1)]


def history(*pairs: tuple[int, int]) -> PairingHistory:
    opponents: dict[PlayerId, set[PlayerId]] = {}
    for a, b in pairs:
        opponents.setdefault(PlayerId(a), set()).add(PlayerId(b))
        opponents.setdefault(PlayerId(b), set()).add(PlayerId(a))
    return PairingHistory({p: frozenset(o) for p, o in opponents.items()})


def context(number: int, later_rounds: int, seed: str = "golden") -> PairingContext:
    return PairingContext(RoundNumber(number), later_rounds, seed, PointsTable.default())


def pairs_of(pairing: RoundPairing) -> list[tuple[int, int]]:
    return [(pair.higher, pair.lower) for pair in pairing.pairs]


SPEC_ROUNDS_1_2 = history((1, 2), (3, 4), (5, 6), (1, 6), (2, 4), (3, 5))


def test_spec_worked_case_look_ahead_changes_round_3() -> None:
    pairing = pair_round(field(6), SPEC_ROUNDS_1_2, context(3, later_rounds=1))

    assert pairs_of(pairing) == [(1, 3), (2, 6), (4, 5)]
    assert pairing.bye is None
    assert pairing.path == (SEARCH, LOOKAHEAD)
    assert pairing.rematch_pairs == ()


def test_spec_worked_case_with_two_later_rounds() -> None:
    pairing = pair_round(field(6), SPEC_ROUNDS_1_2, context(3, later_rounds=2))

    assert pairs_of(pairing) == [(1, 3), (2, 6), (4, 5)]
    assert pairing.path == (SEARCH, LOOKAHEAD)


def test_spec_worked_case_last_round_is_the_plain_search() -> None:
    pairing = pair_round(field(6), SPEC_ROUNDS_1_2, context(3, later_rounds=0))

    assert pairs_of(pairing) == [(1, 3), (2, 5), (4, 6)]
    assert pairing.path == (SEARCH,)


def test_spec_worked_case_round_4_still_works() -> None:
    played = history(*[(a, b) for a, b in [(1, 2), (3, 4), (5, 6), (1, 6), (2, 4), (3, 5)]])
    after_3 = history(*[(1, 2), (3, 4), (5, 6), (1, 6), (2, 4), (3, 5), (1, 3), (2, 6), (4, 5)])

    assert pairs_of(pair_round(field(6), played, context(3, 1))) == [(1, 3), (2, 6), (4, 5)]
    round_4 = pair_round(field(6), after_3, context(4, later_rounds=0))
    assert pairs_of(round_4) == [(1, 4), (2, 5), (3, 6)]
    assert round_4.path == (SEARCH, BACKTRACK)  # 2–3 would leave 5–6, who have met


def test_nearest_unplayed_when_nothing_blocks() -> None:
    pairing = pair_round(field(8), history((1, 2), (3, 4)), context(2, later_rounds=0))

    assert pairs_of(pairing) == [(1, 3), (2, 4), (5, 6), (7, 8)]
    assert pairing.path == (SEARCH,)


def test_backtrack_gives_the_last_paired_player_its_next_candidate() -> None:
    # Greedy: 1–2, 3–4, then 5–6 have met: 3 takes 5, then 4–6 have met too: 3 takes 6.
    pairing = pair_round(field(6), history((5, 6), (4, 6)), context(2, later_rounds=0))

    assert pairs_of(pairing) == [(1, 2), (3, 6), (4, 5)]
    assert pairing.path == (SEARCH, BACKTRACK)


def test_backtrack_reaches_a_higher_player_when_needed() -> None:
    # 3 and 4 have met everybody below 2: only 1–2 going away frees a partner for them.
    played = history((3, 4), (3, 5), (3, 6), (4, 5), (4, 6))
    pairing = pair_round(field(6), played, context(2, later_rounds=0))

    assert pairs_of(pairing) == [(1, 5), (2, 3), (4, 6)] or pairs_of(pairing) == [
        (1, 3),
        (2, 4),
        (5, 6),
    ]


def test_backtrack_first_candidate_for_the_leader_changes() -> None:
    # 1–2 leaves 3 and 4, who have met: 1 must take 3.
    pairing = pair_round(field(4), history((3, 4)), context(2, later_rounds=0))

    assert pairs_of(pairing) == [(1, 3), (2, 4)]
    assert pairing.path == (SEARCH, BACKTRACK)


def test_fallback_when_every_pair_has_met() -> None:
    everyone = history((1, 2), (3, 4), (1, 3), (2, 4), (1, 4), (2, 3))
    pairing = pair_round(field(4), everyone, context(4, later_rounds=0))

    assert pairs_of(pairing) == [(1, 2), (3, 4)]
    assert pairing.rematch_pairs == (Pair(PlayerId(1), PlayerId(2)), Pair(PlayerId(3), PlayerId(4)))
    assert pairing.path == (FALLBACK,)
    assert pairing.is_fallback


def test_fallback_with_an_odd_count_gives_the_bye_as_step_1() -> None:
    everyone = history((1, 2), (1, 3), (2, 3))
    pairing = pair_round(field(3, byes=[1]), everyone, context(4, later_rounds=0))

    assert pairing.bye == 3
    assert pairs_of(pairing) == [(1, 2)]
    assert pairing.rematch_pairs == (Pair(PlayerId(1), PlayerId(2)),)
    assert pairing.path == (FALLBACK,)


def test_bye_goes_to_the_lowest_ranked_without_one() -> None:
    pairing = pair_round(field(5, byes=[5]), history((1, 2), (3, 4)), context(2, later_rounds=1))

    assert pairing.bye == 4
    assert pairs_of(pairing) == [(1, 3), (2, 5)]
    assert pairing.path == (SEARCH,)


def test_bye_can_go_to_the_leader_when_everyone_else_had_one() -> None:
    pairing = pair_round(field(3, byes=[2, 3]), history((1, 2), (1, 3)), context(3, 0))

    assert pairing.bye == 1
    assert pairs_of(pairing) == [(2, 3)]
    assert pairing.path == (SEARCH,)


def test_second_bye_only_when_no_player_without_one_allows_a_round() -> None:
    # Only 1 has no bye; without 1, 2 and 3 would meet again. 3 (lowest with a bye) sits out.
    pairing = pair_round(field(3, byes=[2, 3]), history((2, 3)), context(3, later_rounds=0))

    assert pairing.bye == 3
    assert pairs_of(pairing) == [(1, 2)]
    assert pairing.path == (SECOND_BYE, SEARCH, BACKTRACK)


def test_second_bye_when_the_look_ahead_rules_out_the_players_without_one() -> None:
    # Only 5 is without a bye. With 5 out, 1..4 (a square of played pairs) must play 1–4,
    # 2–3, leaving only pairs with 5 for the last round: impossible. With 4 out: 1–5, 2–3,
    # and the last round can be 1–4, 2–5 (3 out).
    played = history((1, 2), (1, 3), (2, 4), (3, 4))
    last = pair_round(field(5, byes=[1, 2, 3, 4]), played, context(3, later_rounds=0))
    ahead = pair_round(field(5, byes=[1, 2, 3, 4]), played, context(3, later_rounds=1))

    assert last.bye == 5
    assert pairs_of(last) == [(1, 4), (2, 3)]
    assert last.path == (SEARCH,)
    assert ahead.bye == 4
    assert pairs_of(ahead) == [(1, 5), (2, 3)]
    assert ahead.path == (SECOND_BYE, SEARCH, LOOKAHEAD)


def test_look_ahead_ignored_when_no_round_allows_the_later_ones() -> None:
    # 4 players with 1–2 and 3–4 played: only two rounds are left, not three.
    pairing = pair_round(field(4), history((1, 2), (3, 4)), context(2, later_rounds=2))

    assert pairs_of(pairing) == [(1, 3), (2, 4)]
    assert pairing.path == (SEARCH, LOOKAHEAD_IGNORED)


def test_round_1_is_the_seeded_draw() -> None:
    pairing = pair_round(field(7), history(), context(1, later_rounds=3, seed="club-night"))
    shuffled = list(range(1, 8))
    random.Random("club-night").shuffle(shuffled)

    assert pairing.path == (DRAW,)
    assert pairing.bye == shuffled[-1]
    drawn = sorted(tuple(sorted(p)) for p in zip(shuffled[0:6:2], shuffled[1:6:2], strict=True))
    assert pairs_of(pairing) == drawn


def test_round_1_golden_draw() -> None:
    pairing = pair_round(field(7), history(), context(1, later_rounds=2, seed="s"))

    assert pairs_of(pairing) == [(1, 5), (2, 6), (3, 7)]
    assert pairing.bye == 4


def test_round_1_depends_on_the_seed_only() -> None:
    draws = {
        seed: pairs_of(pair_round(field(10), history(), context(1, 3, seed=seed)))
        for seed in ("a", "b", "c", "d")
    }

    assert draws["a"] == pairs_of(pair_round(field(10), history(), context(1, 3, seed="a")))
    assert len({tuple(d) for d in draws.values()}) > 1


def test_pairs_are_written_by_id_of_the_order_not_by_start_number() -> None:
    order = [Entrant(PlayerId(40), Score(6), 0, 3), Entrant(PlayerId(10), Score(6), 0, 1)]
    order += [Entrant(PlayerId(30), Score(0), 0, 4), Entrant(PlayerId(20), Score(0), 0, 2)]

    pairing = pair_round(order, history((40, 10)), context(2, later_rounds=0))

    assert pairs_of(pairing) == [(40, 30), (10, 20)]


def test_withdrawn_players_in_the_history_are_ignored() -> None:
    pairing = pair_round(field(4), history((1, 2), (3, 99), (4, 99)), context(2, 0))

    assert pairs_of(pairing) == [(1, 3), (2, 4)]


def test_empty_and_single_player_groups() -> None:
    assert pair_round([], history(), context(2, 0)) == RoundPairing(
        pairs=(), bye=None, path=(SEARCH,), explanation=RoundExplanation("nearest")
    )
    alone = pair_round(field(1, byes=[1]), history(), context(2, 0))
    assert alone.pairs == ()
    assert alone.bye == 1
    assert alone.path == (SECOND_BYE, SEARCH)
