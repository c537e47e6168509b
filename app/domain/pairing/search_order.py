"""The search of pairing ``nearest``: steps 2 and 3 of ``pairing-nearest.md``.

Players are rank indices ``0..n-1`` (0 is the leader). The highest unpaired player ``p`` takes
the nearest unpaired player below it that it has not played; when the players left have all
played each other, the last paired higher player takes its next candidate. The round found is
the first complete rematch-free pairing in that depth-first order over (player, candidate).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass

from app.domain.deadline import NO_DEADLINE, Deadline

Pairs = Sequence[tuple[int, int]]
Viable = Callable[[Pairs, int | None], bool]
"""Whether a partial round (pairs so far, bye) can still be completed into an accepted one."""


@dataclass(frozen=True, slots=True)
class Found:
    """A complete round: pairs ``(higher, lower)`` by rank, in board order."""

    pairs: tuple[tuple[int, int], ...]
    backtracked: bool
    """Whether some player did not get the nearest unpaired player it had not played: the
    search had to go back (however early it noticed the dead end)."""


def first_round(
    played: Sequence[Set[int]],
    bye: int | None,
    *,
    viable: Viable | None = None,
    deadline: Deadline = NO_DEADLINE,
) -> Found | None:
    """The first complete rematch-free pairing in search order (steps 2–3), or ``None``.

    With ``viable``, a subtree is entered only when ``viable`` says the partial round can still
    be completed into an accepted one (the look-ahead of step 4, checked at every node so that
    skipping rounds costs one check per choice rather than one per complete round). Without it,
    dead ends are memoised by the set of players already paired: whether the players left can
    be paired among themselves does not depend on how the others were paired.
    """
    n = len(played)
    if viable is not None and not viable((), bye):
        return None
    field = _Field(played, bye)
    taken = field.taken
    stack: list[tuple[int, int]] = []
    dead: set[int] = set()
    mask = 0
    p = _next_free(taken, 0)
    start = p + 1
    while p < n:
        deadline.check()
        played_p = played[p]
        q = start
        while q < n:
            if not taken[q] and q not in played_p:
                field.take(p, q)
                stack.append((p, q))
                bits = (1 << p) | (1 << q)
                if not field.stranded() and (
                    viable(stack, bye) if viable is not None else (mask ^ bits) not in dead
                ):
                    mask ^= bits
                    break
                stack.pop()
                field.release(p, q)
            q += 1
        if q < n:
            p = _next_free(taken, p + 1)
            start = p + 1
            continue
        # No candidate left for p: go back to the last paired higher player.
        if viable is None:
            dead.add(mask)
        if not stack:
            return None
        p, q = stack.pop()
        mask ^= (1 << p) | (1 << q)
        field.release(p, q)
        start = q + 1
    return Found(pairs=tuple(stack), backtracked=not _greedy(played, bye, stack))


def _greedy(played: Sequence[Set[int]], bye: int | None, pairs: Pairs) -> bool:
    """Whether every player in ``pairs`` took its first candidate (no going back at all)."""
    taken = [False] * len(played)
    if bye is not None:
        taken[bye] = True
    for p, q in pairs:
        taken[p] = True
        nearest = p + 1
        while taken[nearest] or nearest in played[p]:
            nearest += 1
        if nearest != q:
            return False
        taken[q] = True
    return True


class _Field:
    """The players still unpaired, and how many of them each player has already played.

    A player who has played every other unpaired player strands the partial round: it cannot
    be completed, so the search goes back at once instead of finding out pair by pair. Only
    players with at least ``free - 1`` opponents in all can be stranded, so in early rounds the
    check costs nothing until the last few pairs.
    """

    def __init__(self, played: Sequence[Set[int]], bye: int | None) -> None:
        n = len(played)
        self.played = played
        self.taken = [False] * n
        self.free = n
        self.met = [len(s) for s in played]
        """Opponents already played among the unpaired players."""
        self.heavy = sorted(range(n), key=lambda v: (-self.met[v], v))
        if bye is not None:
            self._mark(bye, taken=True)

    def _mark(self, v: int, *, taken: bool) -> None:
        self.taken[v] = taken
        step = -1 if taken else 1
        self.free += step
        met = self.met
        for w in self.played[v]:
            met[w] += step

    def take(self, p: int, q: int) -> None:
        self._mark(p, taken=True)
        self._mark(q, taken=True)

    def release(self, p: int, q: int) -> None:
        self._mark(p, taken=False)
        self._mark(q, taken=False)

    def stranded(self) -> bool:
        limit = self.free - 1
        for v in self.heavy:
            if len(self.played[v]) < limit:
                return False
            if not self.taken[v] and self.met[v] >= limit:
                return True
        return False


def _next_free(taken: Sequence[bool], start: int) -> int:
    n = len(taken)
    while start < n and taken[start]:
        start += 1
    return start
