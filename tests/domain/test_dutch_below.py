"""The matching over a bracket and everybody below it, searched from the players below
(``dutch/below.py``), and the narrow weights of a bracket (``Criteria.within``): both give the
pairings of the search over everybody with the round's full weights, which stays in the engine
as the fallback and is what these tests compare with, round by round."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.pairing.dutch import below as below_module
from app.domain.pairing.dutch import pair_dutch
from app.domain.pairing.dutch.below import Below
from app.domain.pairing.dutch.criteria import Criteria
from app.domain.pairing.dutch.matching import max_weight_matching, max_weight_perfect_matching
from app.domain.pairing.dutch.state import Float, PlayerState, Strength
from app.domain.pairing.dutch.types import Colour, DutchInput, DutchPairing
from app.domain.types import PlayerId, Score
from tests.domain.dutch_simulation import play

Edges = list[tuple[int, int, int]]


def _best_perfect(weight: dict[tuple[int, int], int], free: tuple[int, ...]) -> int | None:
    """The heaviest perfect matching of ``free`` by trying every partner of the first vertex
    (``None``: there is none)."""
    if not free:
        return 0
    first, rest = free[0], free[1:]
    best = None
    for k, other in enumerate(rest):
        if (first, other) in weight:
            tail = _best_perfect(weight, rest[:k] + rest[k + 1 :])
            if tail is not None:
                total = weight[(first, other)] + tail
                best = total if best is None else max(best, total)
    return best


def _pull_down_and_match(
    order: Iterable[int],
    edges: Edges,
    dual: list[int],
    pull: Callable[[], bool],
    take: Callable[[], bool],
) -> list[int]:
    """Pull some vertices' duals (in ``order``, when ``pull()``) down as far as their pairs
    allow, which makes those pairs tight; return a matching of tight pairs (those ``take()``
    accepts), as indices into ``edges``."""
    for v in order:
        around = [2 * w - dual[b if a == v else a] for a, b, w in edges if v in (a, b)]
        if around and pull():
            dual[v] = max(around)
    matched: list[int] = []
    used: set[int] = set()
    for k, (a, b, w) in enumerate(edges):
        if dual[a] + dual[b] == 2 * w and not {a, b} & used and take():
            matched.append(k)
            used |= {a, b}
    return matched


@st.composite
def started(draw: st.DrawFn) -> tuple[int, Edges, list[int], list[int]]:
    """A graph with weights of any sign (some packed like the criteria), feasible duals for
    the doubled weights, and a matching of pairs tight under them to start from."""
    n = draw(st.integers(0, 8))
    pairs = [pair for pair in combinations(range(n), 2) if draw(st.integers(0, 2))]
    weights = st.one_of(
        st.integers(-6, 12),
        st.tuples(st.integers(-2, 3), st.integers(0, 7)).map(lambda hl: (hl[0] << 80) + hl[1]),
    )
    edges = [(a, b, draw(weights)) for a, b in pairs]
    # Each vertex at least its heaviest pair's weight, some lifted more, some then pulled
    # down as far as their pairs allow (below 0, often), which makes those pairs tight.
    dual = [max((2 * w for a, b, w in edges if v in (a, b)), default=0) for v in range(n)]
    dual = [max(d, 0) for d in dual]
    dual = [d + draw(st.sampled_from([0, 0, 1, 5])) for d in dual]

    def coin() -> bool:
        return draw(st.booleans())

    return n, edges, dual, _pull_down_and_match(range(n), edges, dual, coin, coin)


@settings(max_examples=400, deadline=None)
@given(started())
def test_the_heaviest_perfect_matching_from_any_feasible_start_is_brute_forces(
    graph: tuple[int, Edges, list[int], list[int]],
) -> None:
    n, edges, dual, matched = graph
    for a, b, w in edges:
        assert dual[a] + dual[b] >= 2 * w  # the strategy's duals are feasible
    mate = max_weight_perfect_matching(n, edges, dual=dual, matched=matched)
    weight = {}
    for a, b, w in edges:
        weight[(a, b)] = weight[(b, a)] = w
    best = _best_perfect(weight, tuple(range(n)))
    if best is None:
        assert -1 in mate
        return
    assert all(mate[mate[v]] == v for v in range(n))
    assert sum(weight[(v, mate[v])] for v in range(n) if v < mate[v]) == best


@settings(max_examples=300, deadline=None)
@given(started())
def test_the_final_duals_are_a_feasible_start_for_the_same_search(
    graph: tuple[int, Edges, list[int], list[int]],
) -> None:
    """What ``below.Start`` carries to the next search of a round: the duals a search ends
    with, blossoms folded into their vertices, are feasible (for the weights doubled twice),
    so a search started from them, halved and rounded up, finds a matching as heavy."""
    n, edges, dual, matched = graph
    final: list[int] = []
    mate = max_weight_perfect_matching(n, edges, dual=dual, matched=matched, final_dual=final)
    assert len(final) == n
    for a, b, w in edges:
        assert final[a] + final[b] >= 4 * w
    again = max_weight_perfect_matching(n, edges, dual=[-(-d // 2) for d in final])
    if -1 in mate:
        assert -1 in again
        return
    weight = {(a, b): w for a, b, w in edges} | {(b, a): w for a, b, w in edges}
    assert sum(weight[(v, mate[v])] for v in range(n) if v < mate[v]) == sum(
        weight[(v, again[v])] for v in range(n) if v < again[v]
    )


@st.composite
def fields(draw: st.DrawFn) -> tuple[int, Edges, list[int], list[int]]:
    """Graphs shaped like a bracket over everybody below: weighted pairs among the first
    players, weight 0 for every pair with a player below, dense or sparse, with feasible
    duals (some pulled down to make pairs tight) and a matching of tight pairs to start from:
    many free players and ties, so that the perfect search grows many trees at once,
    retires the two an augmentation joins and goes on with the others (``_Blossom.retire``)."""
    n = draw(st.integers(10, 36))
    top = draw(st.integers(0, n))
    density = draw(st.sampled_from([0.15, 0.3, 0.6, 0.9]))
    heaviest = draw(st.sampled_from([1, 2, 5, 20]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    edges = [
        (a, b, rng.randint(0, heaviest) if a < top else 0)
        for a, b in combinations(range(n), 2)
        if rng.random() < density
    ]
    dual = [max([2 * w for a, b, w in edges if v in (a, b)] + [0]) for v in range(n)]
    matched = _pull_down_and_match(
        rng.sample(range(n), n),
        edges,
        dual,
        lambda: rng.random() < 0.7,
        lambda: rng.random() < 0.5,
    )
    return n, edges, dual, matched


@settings(max_examples=300, deadline=None)
@given(fields())
def test_the_perfect_search_over_many_trees_weighs_what_a_maximum_matching_does(
    graph: tuple[int, Edges, list[int], list[int]],
) -> None:
    """Too many players for brute force: the heaviest perfect matching weighs what the
    heaviest matching does once every pair is lifted by more than all weights together (a
    perfect matching, when there is one, then outweighs every other)."""
    n, edges, dual, matched = graph
    mate = max_weight_perfect_matching(n, edges, dual=dual, matched=matched)
    lift = 1 + 2 * sum(w for _, _, w in edges)
    heaviest = max_weight_matching(n, [(a, b, w + lift) for a, b, w in edges])
    weight = {(a, b): w for a, b, w in edges} | {(b, a): w for a, b, w in edges}
    if -1 in heaviest:
        assert -1 in mate
        return
    assert all(m != -1 and mate[m] == v for v, m in enumerate(mate))
    assert sum(weight[(v, mate[v])] for v in range(n) if v < mate[v]) == sum(
        weight[(v, heaviest[v])] for v in range(n) if v < heaviest[v]
    )


def test_a_pair_of_trees_whose_roots_duals_differ_in_parity_is_joined_only_when_tight() -> None:
    """Start duals of mixed parity (6 and 7 odd, the others even): the step that makes an
    edge between two trees tight is half its slack, here odd, and it once rounded down and
    took 4-6 and 5-7 a unit short of tight, a perfect matching of weight 1 instead of 2."""
    edges = [(0, 1, 1), (2, 3, 0), (2, 5, 0), (3, 4, 2), (4, 6, -1), (5, 7, 1), (6, 7, -1)]
    dual = [2, 2, 0, 4, 4, 2, 1, 3]
    for a, b, w in edges:
        assert dual[a] + dual[b] >= 2 * w
    mate = max_weight_perfect_matching(8, edges, dual=dual, matched=[])
    assert mate == [1, 0, 5, 4, 3, 2, 7, 6]  # 0-1, 2-5, 3-4, 6-7: 1 + 0 + 2 - 1


@st.composite
def rounds(draw: st.DrawFn) -> tuple[Criteria, bool]:
    """Players of any scores, games played, floats, colours and bye eligibility; a bye score
    or none; C9 counted below or not."""
    n = draw(st.integers(3, 10))
    scores = sorted((draw(st.integers(0, 8)) for _ in range(n)), reverse=True)
    players = [
        PlayerState(
            id=PlayerId(v),
            number=v + 1,
            rank=v,
            score=Score(scores[v]),
            opponents=frozenset(),
            colours=(),
            preference=draw(st.sampled_from([None, *Colour])),
            strength=draw(st.sampled_from(Strength)),
            imbalance=draw(st.integers(0, 3)),
            repeated=draw(st.sampled_from([None, *Colour])),
            bye_eligible=draw(st.booleans()),
            played_games=draw(st.integers(0, 4)),
            last_float=draw(st.sampled_from([None, *Float])),
            float_before=draw(st.sampled_from([None, *Float])),
        )
        for v in range(n)
    ]
    bye_score = draw(st.sampled_from([None, *scores]))
    games = sorted({p.played_games for p in players if p.score == bye_score}, reverse=True)
    criteria = Criteria(
        players,
        played_rounds=draw(st.integers(0, 4)),
        last_round=draw(st.booleans()),
        top_line=Score(8),
        bye_score=None if bye_score is None else Score(bye_score),
        played_ranks={played: rank for rank, played in enumerate(games)},
    )
    return criteria, draw(st.booleans())


@settings(max_examples=200, deadline=None)
@given(rounds())
def test_a_pair_below_weighs_half_its_players_potentials(drawn: tuple[Criteria, bool]) -> None:
    """What ``below`` rests on: outside the bracket and the next scoregroup a pair's weight
    (C4/C5, and C9 when it counts below) is a sum of one value per player."""
    criteria, bye_games = drawn
    n = len(criteria.players)
    found = Below(criteria, range(n), 0, apart=(), bye_games=bye_games)
    assert found.potential is not None
    for a, b in combinations(range(n), 2):
        weight = criteria.quality(
            a, b, in_bracket=False, in_next=False, completion=True, bye_games=bye_games
        )
        assert 2 * weight == found.potential[a] + found.potential[b]


class _Exact:
    """Pairs every round twice: as the engine does, and with the search over everybody and
    the round's full weights (``Below`` never answers, ``within`` changes nothing), the
    engine before them; fails on the first difference."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.rounds = 0
        self.below = 0
        self.solve = Below.solve

        def counted(below: Below, *args: object, **kwargs: object) -> dict[int, int] | None:
            found = self.solve(below, *args, **kwargs)  # type: ignore[arg-type]
            self.below += found is not None
            return found

        monkeypatch.setattr(below_module.Below, "solve", counted)

    def pair(self, round_: DutchInput) -> DutchPairing:
        with self.monkeypatch.context() as exact:
            exact.setattr(below_module.Below, "solve", lambda *args, **kwargs: None)
            exact.setattr(Criteria, "within", lambda criteria, players: criteria)
            expected = pair_dutch(round_)
        found = pair_dutch(round_)
        assert found == expected, f"round {round_.round_number}"
        self.rounds += 1
        return found


def _ok(round_: DutchInput, pairing: DutchPairing) -> None:
    """Nothing more to check: ``_Exact.pair`` compared the round."""


def _tournaments(count: int, seed: int) -> Iterator[tuple[int, int, int]]:
    rng = random.Random(seed)
    for _ in range(count):
        yield rng.randrange(1_000_000), rng.randint(6, 40), rng.randint(3, 11)


@pytest.mark.slow
def test_random_tournaments_pair_as_the_search_over_everybody(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Random results, forfeits, requested byes and withdrawals (odd fields and PABs
    included): every round identical."""
    exact = _Exact(monkeypatch)
    for seed, players, rounds in _tournaments(80, seed=21):
        play(seed, players, rounds, _ok, pair=exact.pair)
    assert exact.rounds > 500
    assert exact.below > 100  # the matching from below answered, it did not always fall back


@pytest.mark.slow
@pytest.mark.parametrize("players", [16, 23, 30, 37, 44])
def test_long_overrides_pair_as_the_search_over_everybody(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    """Every round of a round robin's worth of rounds (every game played), until the first
    round no pairing can keep C1–C3: where a bracket's completion is checked against everybody
    below, over and over."""
    exact = _Exact(monkeypatch)
    rounds = players if players % 2 else players - 1
    for seed in range(2):
        play(seed, players, rounds, _ok, pair=exact.pair, mishaps=False)
    assert exact.rounds >= players
    assert exact.below > 20


@given(st.integers(0, (1 << 40) - 1), st.sets(st.integers(0, 39)))
def test_a_row_without_removed_players_keeps_the_others_in_order(row: int, gone: set[int]) -> None:
    """A second search of a bracket leaves out its MDPs' pairs: each player's bit set of
    pairs below is moved down over them (``below._without``)."""
    kept = [i for i in range(40) if i not in gone]
    expected = sum(1 << k for k, i in enumerate(kept) if row >> i & 1)
    assert below_module._without(row, sorted(gone)) == expected
