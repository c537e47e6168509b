"""The maximum matching behind the pairing searches, against brute force on small graphs.

``Matching`` answers "can the players left still all be paired?" (``perfect``), "with whom can
``p`` be paired so that the rest still can?" (``partners``, ``try_pair``) and "whose bye leaves
the others pairable?" (``left_out_by_some``). Each answer is checked against an exhaustive
search, and the matching it keeps must stay a valid perfect matching through a whole round.
"""

from __future__ import annotations

import itertools
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.pairing.lim.groups import leaving_sets
from app.domain.pairing.matching import Matching, bits, mask, members

Graph = tuple[int, ...]


@st.composite
def graphs(draw: st.DrawFn, *, max_size: int = 12) -> Graph:
    """Random graphs, sparse to dense, or the unplayed pairs left after whole random rounds."""
    size = draw(st.integers(min_value=0, max_value=max_size))
    pairs = list(itertools.combinations(range(size), 2))
    if draw(st.booleans()):
        present = draw(st.lists(st.booleans(), min_size=len(pairs), max_size=len(pairs)))
        edges = [pair for pair, keep in zip(pairs, present, strict=True) if keep]
    else:  # a tournament's unplayed pairs: whole rounds removed from the complete graph
        played: set[tuple[int, int]] = set()
        for _ in range(draw(st.integers(min_value=0, max_value=max(size - 1, 0)))):
            players = draw(st.permutations(range(size)))
            played |= {tuple(sorted(players[i : i + 2])) for i in range(0, size - 1, 2)}  # type: ignore[misc]
        edges = [pair for pair in pairs if pair not in played]
    rows = [0] * size
    for a, b in edges:
        rows[a] |= 1 << b
        rows[b] |= 1 << a
    return tuple(rows)


@cache
def largest(graph: Graph, free: int) -> int:
    """The size of a maximum matching of ``graph`` on ``free``, by exhaustive search."""
    if not free:
        return 0
    v = (free & -free).bit_length() - 1
    rest = free & ~(1 << v)
    return max(
        [largest(graph, rest)]
        + [1 + largest(graph, rest & ~(1 << u)) for u in bits(graph[v] & rest)]
    )


def pairable(graph: Graph, free: int) -> bool:
    return 2 * largest(graph, free) == free.bit_count()


def everyone(graph: Graph) -> int:
    return (1 << len(graph)) - 1


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 600), max_size=400),
    st.integers(0, 3),
)
def test_the_members_of_a_bit_set_are_its_bits_dense_or_sparse(
    positions: list[int], shift: int
) -> None:
    """``members`` reads a dense set off its binary digits and a sparse one bit by bit:
    both are the set's members, lowest first, each once."""
    found = mask(positions) << shift
    assert members(found) == sorted({p + shift for p in positions}) == list(bits(found))


@settings(max_examples=400, deadline=None)
@given(graph=graphs(), leave_out=st.integers(min_value=0, max_value=11))
def test_the_matching_is_maximum_and_valid(graph: Graph, leave_out: int) -> None:
    free = everyone(graph) & ~(1 << leave_out)
    matching = Matching(graph, free)

    assert matching.exposed.bit_count() == free.bit_count() - 2 * largest(graph, free)
    assert matching.perfect == pairable(graph, free)
    for v in bits(free):
        mate = matching.mate[v]
        assert (mate == -1) == bool(matching.exposed >> v & 1)
        if mate != -1:
            assert matching.mate[mate] == v and graph[v] >> mate & 1 and free >> mate & 1


@settings(max_examples=400, deadline=None)
@given(graph=graphs(), free=st.integers(min_value=0), until_left=st.integers(0, 3))
def test_a_matching_stops_short_exactly_when_more_players_than_allowed_are_left(
    graph: Graph, free: int, until_left: int
) -> None:
    """``until_left``: "can all but so many be paired?" is answered without the rest of the
    search when the answer is no; when it is yes, the matching is the maximum one."""
    free &= everyone(graph)
    matching = Matching(graph, free, until_left=until_left)
    left = free.bit_count() - 2 * largest(graph, free)

    assert matching.short == (left > until_left)
    if not matching.short:
        assert matching.exposed.bit_count() == left
    for v in bits(free):
        mate = matching.mate[v]
        if mate != -1:
            assert matching.mate[mate] == v and graph[v] >> mate & 1 and free >> mate & 1


@settings(max_examples=300, deadline=None)
@given(graph=graphs(max_size=11), data=st.data())
def test_a_matching_started_from_another_sets_pairs_is_maximum_with_the_same_byes(
    graph: Graph, data: st.DataObject
) -> None:
    """``start``: the pairs of an earlier matching (of other players, possibly over edges
    this set may not use) are only where the search begins: the matching is maximum and
    leaves out by some exactly the players a fresh one does."""
    earlier = Matching(graph, data.draw(st.integers(0, everyone(graph))))
    free = data.draw(st.integers(0, everyone(graph)))
    narrower = tuple(row & data.draw(st.integers(0, everyone(graph))) for row in graph)
    narrower = tuple(
        sum(1 << u for u in bits(narrower[v]) if narrower[u] >> v & 1) for v in range(len(graph))
    )
    started = Matching(narrower, free, start=earlier.mate)

    assert started.exposed.bit_count() == free.bit_count() - 2 * largest(narrower, free)
    for v in bits(free):
        mate = started.mate[v]
        if mate != -1:
            assert started.mate[mate] == v and narrower[v] >> mate & 1 and free >> mate & 1
    assert started.left_out_by_some() == Matching(narrower, free).left_out_by_some()


@settings(max_examples=300, deadline=None)
@given(graph=graphs(max_size=11))
def test_left_out_by_some_are_exactly_the_byes_that_leave_a_round(graph: Graph) -> None:
    matching = Matching(graph, everyone(graph))
    expected = sum(
        1 << v
        for v in range(len(graph))
        if largest(graph, everyone(graph) & ~(1 << v)) == largest(graph, everyone(graph))
    )
    assert matching.left_out_by_some() == expected


@settings(max_examples=300, deadline=None)
@given(graph=graphs(), data=st.data())
def test_a_whole_round_paired_through_the_matching_stays_exact(
    graph: Graph, data: st.DataObject
) -> None:
    """Pair the highest free player with a partner drawn at random, until nobody is left.

    At each step ``partners`` and ``try_pair`` agree with brute force, a refused ``try_pair``
    changes nothing, and after ``pair`` the matching is still perfect on the players left.
    """
    free = everyone(graph)
    matching = Matching(graph, free)
    if not matching.perfect:
        return
    while free:
        p = (free & -free).bit_length() - 1
        expected = sum(
            1 << q for q in bits(graph[p] & free) if pairable(graph, free & ~(1 << p) & ~(1 << q))
        )
        probe = data.draw(st.sampled_from(list(bits(graph[p] & free))))
        mates = list(matching.mate)
        if matching.try_pair(p, probe):
            assert expected >> probe & 1
            matching.unpair(p, probe)
        else:
            assert not expected >> probe & 1
            assert matching.mate == mates and matching.free == free

        assert matching.partners(p) == expected
        q = data.draw(st.sampled_from(list(bits(expected))))
        if data.draw(st.booleans()):
            matching.pair(p, q)  # right after ``partners``: flips that search's path
        else:
            assert matching.try_pair(p, q)
        free &= ~((1 << p) | (1 << q))

        assert matching.free == free and matching.perfect
        for v in bits(free):
            mate = matching.mate[v]
            assert matching.mate[mate] == v and graph[v] >> mate & 1 and free >> mate & 1


@settings(max_examples=300, deadline=None)
@given(graph=graphs(max_size=11), data=st.data())
def test_leaving_sets_are_the_combinations_after_which_the_rest_can_pair(
    graph: Graph, data: st.DataObject
) -> None:
    """``lim`` step 3.4 lists sets of leaving players in ``combinations`` order, skipping (and
    never trying) those whose leaving leaves an unpairable rest."""
    ranked = data.draw(st.permutations(range(len(graph))))
    size = data.draw(st.integers(min_value=0, max_value=len(graph)))
    expected = [
        leaving
        for leaving in itertools.combinations(ranked, size)
        if pairable(graph, everyone(graph) & ~sum(1 << p for p in leaving))
    ]
    assert list(leaving_sets(graph, ranked, size)) == expected


@settings(max_examples=300, deadline=None)
@given(graph=graphs(), data=st.data())
def test_first_partner_is_the_lowest_or_highest_partner_and_pair_follows_it(
    graph: Graph, data: st.DataObject
) -> None:
    """``first_partner`` may stop its search early; ``pair`` right after it stays exact."""
    free = everyone(graph)
    matching = Matching(graph, free)
    if not matching.perfect:
        return
    while free:
        p = data.draw(st.sampled_from(list(bits(free))))
        expected = sum(
            1 << q for q in bits(graph[p] & free) if pairable(graph, free & ~(1 << p) & ~(1 << q))
        )
        highest = data.draw(st.booleans())
        q, listed = matching.first_partner(p, highest=highest)
        assert q == (
            expected.bit_length() - 1 if highest else (expected & -expected).bit_length() - 1
        )
        assert listed is None or listed == expected
        matching.pair(p, q)
        free &= ~((1 << p) | (1 << q))
        assert matching.free == free and matching.perfect
        for v in bits(free):
            mate = matching.mate[v]
            assert matching.mate[mate] == v and graph[v] >> mate & 1 and free >> mate & 1
