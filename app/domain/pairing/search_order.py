"""The search of pairing ``nearest``: steps 2 and 3 of ``pairing-nearest.md``.

Players are rank indices ``0..n-1`` (0 is the leader). The highest unpaired player ``p`` takes
the nearest unpaired player below it that it has not played; when the players left have all
played each other, the last paired higher player takes its next candidate. The round found is
the first complete rematch-free pairing in that depth-first order over (player, candidate).

The search never enters a dead branch: before ``p`` takes ``q`` it knows that the players left
can still be paired without a rematch (``matching.Matching``: a maximum matching of the unplayed
pairs, kept up to date, so the test is exact). So the first candidate that passes is the one the
depth-first order would settle on, and the search reaches the first round in order without
going back, in polynomial time. With ``viable`` (the look-ahead's test of a partial round) a
candidate must pass that too; an exact ``viable`` keeps the search free of going back as well.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.pairing.matching import Matching, bits, lowest

Pairs = Sequence[tuple[int, int]]
Viable = Callable[[Pairs, int | None], bool]
"""Whether a partial round (pairs so far, bye) can still be completed into an accepted one."""

_UNKNOWN = -1
"""A frame whose other candidates have not been listed (it took the nearest at once)."""


@dataclass(frozen=True, slots=True)
class Found:
    """A complete round: pairs ``(higher, lower)`` by rank, in board order."""

    pairs: tuple[tuple[int, int], ...]
    backtracked: bool
    """Whether some player did not get the nearest unpaired player it had not played: the
    search had to go back (however early it noticed the dead end)."""


def unplayed_graph(played: Sequence[Set[int]]) -> list[int]:
    """Each player's possible opponents as a bit set: everyone else not yet played."""
    everyone = (1 << len(played)) - 1
    return [everyone & ~(1 << v) & ~sum(1 << w for w in played[v]) for v in range(len(played))]


def first_round(
    unplayed: Sequence[int],
    bye: int | None,
    *,
    viable: Viable | None = None,
    players: int | None = None,
    deadline: Deadline = NO_DEADLINE,
) -> Found | None:
    """The first complete rematch-free pairing in search order (steps 2–3), or ``None``.

    ``unplayed`` is ``unplayed_graph``'s bit sets. With ``viable``, a candidate is taken only
    when ``viable`` says the partial round can still be completed into an accepted one (the
    look-ahead of step 4, checked at every step so that skipping rounds costs one check per
    choice rather than one per complete round). ``players`` (a bit set) pairs only those, the
    others being paired already; by default everyone but ``bye``.
    """
    free = _players(len(unplayed), bye, players)
    matching = Matching(unplayed, free, deadline=deadline)
    if not matching.perfect:
        return None
    if matching.greedy and viable is None:
        # Each player took the nearest one left, and the round is complete: it is the first.
        mate = matching.mate
        return Found(tuple((p, mate[p]) for p in bits(free) if p < mate[p]), backtracked=False)
    if viable is not None and not viable((), bye):
        return None
    pairs: list[tuple[int, int]] = []
    frames: list[int] = []
    """For each pair taken, its higher player's candidates after the one taken (or unknown)."""

    def accepts(p: int, q: int) -> bool:
        if viable is None:
            return True
        pairs.append((p, q))
        accepted = viable(pairs, bye)
        pairs.pop()
        return accepted

    rest = _UNKNOWN
    while matching.free:
        if not len(pairs) % 32:  # a step costs microseconds: read the clock now and then
            deadline.check()
        p = lowest(matching.free)
        q, rest = _take_candidate(matching, unplayed, p, rest, accepts)
        if q >= 0:
            pairs.append((p, q))
            frames.append(rest)
            rest = _UNKNOWN
            continue
        # Only an inexact ``viable`` leads here: go back to the last paired higher player.
        if not pairs:
            return None
        p, q = pairs.pop()
        rest = frames.pop()
        matching.unpair(p, q)
        if rest == _UNKNOWN:
            rest = matching.partners(p) & ~((2 << q) - 1)
    return Found(pairs=tuple(pairs), backtracked=not _greedy(unplayed, free, pairs))


def _players(n: int, bye: int | None, players: int | None) -> int:
    if players is not None:
        return players
    free = (1 << n) - 1
    return free if bye is None else free & ~(1 << bye)


def _take_candidate(
    matching: Matching,
    unplayed: Sequence[int],
    p: int,
    rest: int,
    accepts: Callable[[int, int], bool],
) -> tuple[int, int]:
    """Pair ``p`` with its first candidate in ``rest`` (``_UNKNOWN``: from the nearest on)
    after which the others can still be paired and that ``accepts`` takes.

    Returns the candidate and the ones after it still to try (``_UNKNOWN`` when only the
    nearest was tested), or ``(-1, 0)`` when none is left.
    """
    if rest == _UNKNOWN:
        nearest = lowest(unplayed[p] & matching.free)
        if matching.try_pair(p, nearest):
            if accepts(p, nearest):
                return nearest, _UNKNOWN
            matching.unpair(p, nearest)
            rest = matching.partners(p) & ~(1 << nearest)
        else:
            rest = matching.partners(p)
    while rest:
        q = lowest(rest)
        rest &= ~(1 << q)
        if accepts(p, q):
            matching.pair(p, q)
            return q, rest
    return -1, 0


def _greedy(unplayed: Sequence[int], free: int, pairs: Pairs) -> bool:
    """Whether every player in ``pairs`` took its first candidate (no going back at all)."""
    for p, q in pairs:
        free &= ~(1 << p)
        if lowest(unplayed[p] & free) != q:
            return False
        free &= ~(1 << q)
    return True
