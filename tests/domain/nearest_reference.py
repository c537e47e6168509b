"""A brute-force reading of ``pairing-nearest.md`` to check the engine against, small fields only.

Players are rank indices ``0..n-1``. Nothing here is clever: every rematch-free pairing is
generated in the spec's search order, and the look-ahead tries every sequence of later rounds
(pruned only by the obvious degree count).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache

Edge = frozenset[int]


@dataclass(frozen=True)
class Expected:
    pairs: tuple[tuple[int, int], ...]
    bye: int | None
    kind: str
    """``accepted``, ``ignored`` (look-ahead ignored) or ``fallback``."""


def pairings_in_search_order(
    players: list[int], played: frozenset[Edge]
) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every rematch-free pairing of ``players`` (sorted by rank), in the spec's search order."""
    if not players:
        yield ()
        return
    p, rest = players[0], players[1:]
    for i, q in enumerate(rest):
        if frozenset((p, q)) in played:
            continue
        for tail in pairings_in_search_order(rest[:i] + rest[i + 1 :], played):
            yield ((p, q), *tail)


def later_rounds_possible(n: int, played: frozenset[Edge], rounds: int) -> bool:
    """Whether ``rounds`` rematch-free rounds can still follow (any player may take a bye)."""
    return _possible(n, played, rounds)


@cache
def _possible(n: int, played: frozenset[Edge], rounds: int) -> bool:
    if rounds == 0:
        return True
    free = [n - 1 - sum(1 for e in played if v in e) for v in range(n)]
    if n % 2 == 0 and min(free) < rounds:
        return False
    if n % 2 == 1 and sum(max(0, rounds - f) for f in free) > rounds:
        return False
    byes: list[int | None] = list(range(n)) if n % 2 else [None]
    for bye in byes:
        players = [v for v in range(n) if v != bye]
        for pairs in pairings_in_search_order(players, played):
            if _possible(n, played | {frozenset(p) for p in pairs}, rounds - 1):
                return True
    return False


def bye_order(byes: Sequence[int]) -> list[int | None]:
    """Step 1: players without a bye from the lowest-ranked up, then those with one."""
    n = len(byes)
    if n % 2 == 0:
        return [None]
    bottom_up = range(n - 1, -1, -1)
    order: list[int | None] = [v for v in bottom_up if byes[v] == 0]
    return order + [v for v in bottom_up if byes[v] > 0]


def expected_round(byes: Sequence[int], played: frozenset[Edge], later_rounds: int) -> Expected:
    """The round the spec prescribes for ranks ``0..n-1`` with these byes and this history."""
    n = len(byes)
    candidates = bye_order(byes)
    for bye in candidates:
        players = [v for v in range(n) if v != bye]
        for pairs in pairings_in_search_order(players, played):
            after = played | {frozenset(p) for p in pairs}
            if later_rounds_possible(n, after, later_rounds):
                return Expected(pairs, bye, "accepted")
    for bye in candidates:
        players = [v for v in range(n) if v != bye]
        for pairs in pairings_in_search_order(players, played):
            return Expected(pairs, bye, "ignored")
    bye = candidates[0]
    players = [v for v in range(n) if v != bye]
    pairs = tuple((players[i], players[i + 1]) for i in range(0, len(players) - 1, 2))
    return Expected(pairs, bye, "fallback")


def accepted_with(bye: int | None, n: int, played: frozenset[Edge], later_rounds: int) -> bool:
    """Whether some round with this bye is rematch-free and passes the look-ahead."""
    players = [v for v in range(n) if v != bye]
    return any(
        later_rounds_possible(n, played | {frozenset(p) for p in pairs}, later_rounds)
        for pairs in pairings_in_search_order(players, played)
    )


def rematch_free_with(bye: int | None, n: int, played: frozenset[Edge]) -> bool:
    players = [v for v in range(n) if v != bye]
    return next(pairings_in_search_order(players, played), None) is not None
