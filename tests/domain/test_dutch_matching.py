"""The Dutch engine's matchings agree with brute force on small graphs, and its graph of
allowed meetings as bit sets agrees with ``Criteria.allowed``."""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.pairing.dutch.completion import maximum_matching
from app.domain.pairing.dutch.criteria import Criteria, Layout
from app.domain.pairing.dutch.engine import _sends_down_too_many
from app.domain.pairing.dutch.matching import max_weight_matching, max_weight_perfect_matching
from app.domain.pairing.dutch.state import PlayerState, Strength
from app.domain.pairing.dutch.types import Colour
from app.domain.pairing.matching import Matching, bits
from app.domain.types import PlayerId, Score

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
def test_the_heaviest_matchings_final_duals_are_a_start_for_the_perfect_search(
    graph: tuple[int, Edges],
) -> None:
    """What ``below._priced`` starts the top from: the duals the heaviest matching ends with,
    blossoms folded into their vertices, are at least 0 and feasible for every edge
    (``dual[u] + dual[v] >= 2 * weight``); the matching is still the heaviest, and its pairs
    are tight unless a blossom holds them: the perfect search started from them and those
    pairs finds a perfect matching as heavy as one started from nothing."""
    n, edges = graph
    final: list[int] = []
    mate = max_weight_matching(n, edges, final_dual=final)
    assert len(final) == n and min(final, default=0) >= 0
    weight = {(a, b): w for a, b, w in edges} | {(b, a): w for a, b, w in edges}
    for a, b, w in edges:
        assert final[a] + final[b] >= 2 * w
    assert sum(weight[(v, m)] for v, m in enumerate(mate) if v < m) == _best(
        n, {(a, b): w for a, b, w in edges}, tuple(range(n))
    )
    tight = [
        (v, m) for v, m in enumerate(mate) if v < m and final[v] + final[m] == 2 * weight[(v, m)]
    ]
    top = max((w for _, _, w in edges), default=0)
    started = max_weight_perfect_matching(n, edges, dual=final, mates=tight)
    cold = max_weight_perfect_matching(n, edges, dual=[top] * n)
    assert (-1 in started) == (-1 in cold)
    if -1 not in cold:
        assert sum(weight[(v, started[v])] for v in range(n) if v < started[v]) == sum(
            weight[(v, cold[v])] for v in range(n) if v < cold[v]
        )


def _player(
    v: int,
    *,
    opponents: frozenset[int] = frozenset(),
    preference: Colour | None = None,
    strength: Strength = Strength.NONE,
    score: int = 0,
) -> PlayerState:
    return PlayerState(
        id=PlayerId(v),
        number=v + 1,
        rank=v,
        score=Score(score),
        opponents=frozenset(PlayerId(o) for o in opponents),
        colours=(),
        preference=preference,
        strength=strength,
        imbalance=2 if strength is Strength.ABSOLUTE else 0,
        repeated=None,
        bye_eligible=True,
        played_games=0,
        last_float=None,
        float_before=None,
    )


def _criteria(players: Sequence[PlayerState], *, last_round: bool = False) -> Criteria:
    return Criteria(
        players,
        played_rounds=4,
        last_round=last_round,
        top_line=Score(8),
        bye_score=None,
        played_ranks={},
    )


@settings(max_examples=300, deadline=None)
@given(graphs())
def test_maximum_matching_and_who_can_be_left_out(graph: tuple[int, Edges]) -> None:
    """Any graph is a field whose missing edges are earlier meetings (C1)."""
    n, edges = graph
    present = {(a, b) for a, b, _ in edges}

    def allowed(a: int, b: int) -> bool:
        return (min(a, b), max(a, b)) in present

    met = [frozenset(u for u in range(n) if u != v and not allowed(u, v)) for v in range(n)]
    criteria = _criteria([_player(v, opponents=met[v]) for v in range(n)])
    matching = maximum_matching(criteria, range(n))
    unit = {pair: 1 for pair in present}
    assert matching.size == _best(n, unit, tuple(range(n)))
    left_out = {
        v for v in range(n) if _best(n, unit, tuple(u for u in range(n) if u != v)) == matching.size
    }
    assert matching.exposable() == left_out


@st.composite
def fields(draw: st.DrawFn) -> tuple[Criteria, list[int], set[int]]:
    """Players with meetings, absolute colour preferences and scores (topscorers in the last
    round), a subset of them in some order, and some of those kept apart."""
    n = draw(st.integers(1, 12))
    pairs = [pair for pair in combinations(range(n), 2) if draw(st.integers(0, 3)) == 0]
    players = []
    for v in range(n):
        strength = draw(st.sampled_from([Strength.NONE, Strength.MILD, Strength.ABSOLUTE]))
        players.append(
            _player(
                v,
                opponents=frozenset(b if a == v else a for a, b in pairs if v in (a, b)),
                preference=None if strength is Strength.NONE else draw(st.sampled_from(Colour)),
                strength=strength,
                score=draw(st.integers(0, 8)),
            )
        )
    criteria = _criteria(players, last_round=draw(st.booleans()))
    vertices = draw(st.permutations(range(n)))[: draw(st.integers(0, n))]
    apart = {v for v in vertices if draw(st.booleans())}
    return criteria, vertices, apart


@settings(max_examples=300, deadline=None)
@given(fields())
def test_the_graph_as_bit_sets_is_allowed(field: tuple[Criteria, list[int], set[int]]) -> None:
    criteria, vertices, apart = field
    _assert_allowed(criteria, vertices, apart)


@settings(max_examples=300, deadline=None)
@given(field=fields(), data=st.data())
def test_the_graph_of_mdps_and_everybody_below_is_read_off_the_rounds(
    field: tuple[Criteria, list[int], set[int]], data: st.DataObject
) -> None:
    """A matching over everybody below has its MDPs (kept apart) first, then every player
    from some first one to the last: ``adjacency`` reads those rows off the round's graph
    (``Criteria._below``), with the same bits as ``allowed`` gives."""
    criteria, _, _ = field
    n = len(criteria.players)
    first = data.draw(st.integers(1, max(1, n - 1)))
    above = data.draw(st.permutations(range(first)))
    head = above[: data.draw(st.integers(1, len(above)))]
    _assert_allowed(criteria, [*head, *range(first, n)], set(head))


def _assert_allowed(criteria: Criteria, vertices: Sequence[int], apart: set[int]) -> None:
    """``adjacency(vertices, apart)`` has bit ``j`` of row ``i`` exactly when the two may
    meet (``allowed``) and are not both kept apart, and no bit beyond the vertices."""
    graph = criteria.adjacency(vertices, apart)
    for i, a in enumerate(vertices):
        for j, b in enumerate(vertices):
            expected = a != b and criteria.allowed(a, b) and not (a in apart and b in apart)
            assert bool(graph[i] >> j & 1) == expected, (i, j)
        assert graph[i] >> len(vertices) == 0


@settings(max_examples=300, deadline=None)
@given(field=fields(), data=st.data())
def test_a_bracket_sends_down_too_many_exactly_when_its_maximum_matching_does(
    field: tuple[Criteria, list[int], set[int]], data: st.DataObject
) -> None:
    """``_sends_down_too_many`` decides by counting when the MDPs outnumber the residents and
    the next scoregroup together: its answer is always that of the maximum matching of the
    bracket (MDPs apart), whatever the meetings."""
    criteria, _, _ = field
    n = len(criteria.players)
    order = data.draw(st.permutations(range(n)))
    cut = sorted(data.draw(st.lists(st.integers(0, n), min_size=2, max_size=2)))
    mdps, residents, following = order[: cut[0]], order[cut[0] : cut[1]], order[cut[1] :]
    bracket = [*mdps, *residents]
    pairs = maximum_matching(criteria, bracket, apart=set(mdps)).size
    expected = len(bracket) > len(following) and len(bracket) - 2 * pairs > len(following)
    assert _sends_down_too_many(criteria, mdps, residents, following) == expected


def test_two_absolute_whites_meet_only_with_a_topscorer_in_the_last_round() -> None:
    """C3 and Art. 1.8 in the bit sets: 0 and 1 both must have White; 2 is a topscorer (more
    than half of 8 half-points) who must have White too; 3 has no preference and met 0."""
    w, absolute = Colour.WHITE, Strength.ABSOLUTE
    players = [
        _player(0, opponents=frozenset({3}), preference=w, strength=absolute),
        _player(1, preference=w, strength=absolute),
        _player(2, score=5, preference=w, strength=absolute),
        _player(3, opponents=frozenset({0})),
    ]
    before_last = _criteria(players).adjacency(range(4))
    assert before_last == [0b0000, 0b1000, 0b1000, 0b0110]
    last = _criteria(players, last_round=True).adjacency(range(4))
    assert last == [0b0100, 0b1100, 0b1011, 0b0110]
    assert _criteria(players, last_round=True).adjacency([3, 2, 1], apart={2, 1}) == [
        0b110,
        0b001,
        0b001,
    ]


@settings(max_examples=100, deadline=None)
@given(fields(), st.integers(0, 3))
def test_a_pair_outside_the_bracket_weighs_its_completion_field_alone(
    field: tuple[Criteria, list[int], set[int]], played_rounds: int
) -> None:
    """Outside the bracket and the next one only C4/C5 counts: the weight is the completion
    field at the very place it holds in a pair of the bracket (every lower field empty)."""
    criteria, _, _ = field
    criteria.layout = Layout.of(criteria.players, played_rounds)
    width = criteria.layout.under_completion
    n = len(criteria.players)
    for a, b in combinations(range(n), 2):
        outside = criteria.quality(
            a, b, in_bracket=False, in_next=False, completion=True, bye_games=False
        )
        assert outside == criteria.completion(a, b) << width
        inside = criteria.quality(
            a, b, in_bracket=True, in_next=True, completion=True, bye_games=False
        )
        assert inside >> width == criteria.completion(a, b)
        assert (
            criteria.quality(
                a, b, in_bracket=False, in_next=False, completion=False, bye_games=False
            )
            == 0
        )


def test_the_bit_sets_are_the_same_moved_run_by_run_or_looked_up_one_by_one() -> None:
    """``adjacency`` moves C1's bit sets run by run for players in a few runs of the order
    (a bracket, everybody below) and looks each opponent up otherwise: both give ``allowed``."""
    rng = random.Random(5)
    n = 40
    met = {v: set() for v in range(n)}
    for a, b in combinations(range(n), 2):
        if rng.random() < 0.5:
            met[a].add(b)
            met[b].add(a)
    players = [
        _player(
            v,
            opponents=frozenset(met[v]),
            preference=rng.choice(list(Colour)),
            strength=rng.choice(list(Strength)),
        )
        for v in range(n)
    ]
    criteria = _criteria(players)
    in_runs = [*range(3, 15), *range(20, 40)]  # two runs
    one_by_one = in_runs[::-1]  # every player a run of its own
    for vertices in (in_runs, one_by_one):
        graph = criteria.adjacency(vertices)
        for i, a in enumerate(vertices):
            for j, b in enumerate(vertices):
                assert bool(graph[i] >> j & 1) == (a != b and criteria.allowed(a, b))


@settings(max_examples=200, deadline=None)
@given(field=fields(), data=st.data())
def test_maximum_matchings_of_one_round_in_turn_are_those_of_a_fresh_search(
    field: tuple[Criteria, list[int], set[int]], data: st.DataObject
) -> None:
    """A round's maximum matchings start from the pairs found before for their players
    (``Shared.mate``, over sets that overlap, some with players kept apart): each is as large
    and leaves out by some the same players as a search from nothing, and the pairs kept for
    the next one stay a matching."""
    criteria, _, _ = field
    n = len(criteria.players)
    for _ in range(4):
        vertices = data.draw(st.permutations(range(n)))[: data.draw(st.integers(0, n))]
        apart = {v for v in vertices if data.draw(st.integers(0, 3)) == 0}
        found = maximum_matching(criteria, vertices, apart=apart)
        fresh = Matching(criteria.adjacency(vertices, apart), (1 << len(vertices)) - 1)
        assert found.size == (len(vertices) - fresh.exposed.bit_count()) // 2
        assert found.exposable() == {vertices[i] for i in bits(fresh.left_out_by_some())}
        kept = criteria.shared.mate
        assert all(kept[u] == v for v, u in enumerate(kept) if u != -1)
