"""DYP draws (``app/domain/pairing/dyp/draw.py``): hand-worked rounds, brute force on small
fields."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.errors import PairingImpossible
from app.domain.pairing.dyp.draw import DypHistory, DypRound, draw_round
from app.domain.types import PlayerId


def ids(*numbers: int) -> list[PlayerId]:
    return [PlayerId(n) for n in numbers]


def pairings(players: Sequence[int]) -> Iterator[list[tuple[int, int]]]:
    """Every perfect matching of ``players`` (an even number)."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for more in pairings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *more]


def test_first_round_pairs_strong_with_weak() -> None:
    drawn = draw_round(ids(*range(1, 9)), DypHistory())
    teams = {t for m in drawn.matches for t in (m.home, m.away)}
    assert teams == {(1, 8), (2, 7), (3, 6), (4, 5)}
    assert drawn.matches[0].home == (1, 8) and drawn.byes == ()
    assert (drawn.repeated_partners, drawn.repeated_opponents) == (0, 0)


def test_the_players_beyond_four_sit_out_fewest_byes_then_lowest() -> None:
    order = ids(*range(1, 11))  # 10 players: 2 sit out
    assert draw_round(order, DypHistory()).byes == (9, 10)
    had = DypHistory(byes={PlayerId(10): 1})
    assert draw_round(order, had).byes == (8, 9)


def test_fewer_than_four_cannot_play() -> None:
    with pytest.raises(PairingImpossible):
        draw_round(ids(1, 2, 3), DypHistory())


def played(history: DypHistory, drawn: DypRound) -> DypHistory:
    partners, opponents, byes = (
        Counter(history.partners),
        Counter(history.opponents),
        Counter(history.byes),
    )
    for m in drawn.matches:
        for team in (m.home, m.away):
            partners[frozenset(team)] += 1
        for x in m.home:
            for y in m.away:
                opponents[frozenset((x, y))] += 1
    for p in drawn.byes:
        byes[p] += 1
    return DypHistory(dict(partners), dict(opponents), dict(byes))


def test_an_evening_of_twenty_never_repeats_a_partner() -> None:
    order = ids(*range(1, 21))
    history = DypHistory()
    for _ in range(8):
        drawn = draw_round(order, history)
        assert drawn.repeated_partners == 0
        history = played(history, drawn)
        order = order[7:] + order[:7]  # the standings move
    assert max(history.partners.values()) == 1


@st.composite
def fields(draw: st.DrawFn) -> tuple[list[PlayerId], DypHistory]:
    n = draw(st.integers(min_value=4, max_value=9))
    players = ids(*range(1, n + 1))
    pair = st.lists(st.sampled_from(players), min_size=2, max_size=2, unique=True).map(frozenset)
    partners = draw(st.dictionaries(pair, st.integers(1, 2), max_size=14))
    opponents = draw(st.dictionaries(pair, st.integers(1, 2), max_size=20))
    return draw(st.permutations(players)), DypHistory(partners, opponents)


@settings(max_examples=150)
@given(fields())
def test_as_few_repeats_as_brute_force_finds(field: tuple[list[PlayerId], DypHistory]) -> None:
    """No partner repeated while a partnering without one exists (the fewest repeats in
    general), then, for the teams drawn, the fewest repeated opponents; everyone present plays
    once or sits out."""
    order, history = field
    drawn = draw_round(order, history)
    playing = [p for p in order if p not in drawn.byes]
    seated = [p for m in drawn.matches for t in (m.home, m.away) for p in t]
    assert sorted(seated) == sorted(playing) and len(drawn.byes) == len(order) % 4

    def partner_repeats(teams: list[tuple[int, int]]) -> int:
        return sum(1 for a, b in teams if history.partners.get(frozenset((a, b)), 0))

    assert drawn.repeated_partners == min(map(partner_repeats, pairings(playing)))
    teams = [t for m in drawn.matches for t in (m.home, m.away)]

    def opponent_repeats(matches: list[tuple[int, int]]) -> int:
        return sum(
            1
            for i, j in matches
            for x in teams[i]
            for y in teams[j]
            if history.opponents.get(frozenset((x, y)), 0)
        )

    assert drawn.repeated_opponents == min(map(opponent_repeats, pairings(list(range(len(teams))))))
