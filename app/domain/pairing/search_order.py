"""The search of pairing ``nearest``: steps 2 and 3 of ``pairing-nearest.md``.

Players are rank indices ``0..n-1`` (0 is the leader). The highest unpaired player ``p`` takes
the nearest unpaired player below it that it has not played; when the players left have all
played each other, the last paired higher player takes its next candidate. The round found is
the first complete rematch-free pairing in that depth-first order over (player, candidate).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence, Set
from dataclasses import dataclass

Pairs = Sequence[tuple[int, int]]
Viable = Callable[[Pairs, int | None], bool]
"""Whether a partial round (pairs so far, bye) can still be completed into an accepted one."""


@dataclass(frozen=True, slots=True)
class Found:
    """A complete round: pairs ``(higher, lower)`` by rank, in board order."""

    pairs: tuple[tuple[int, int], ...]
    backtracked: bool
    """Whether the search went back at least once (a dead end or a rejected partial round)."""


def first_round(
    played: Sequence[Set[int]], bye: int | None, *, viable: Viable | None = None
) -> Found | None:
    """The first complete rematch-free pairing in search order (steps 2–3), or ``None``.

    With ``viable``, a subtree is entered only when ``viable`` says the partial round can still
    be completed into an accepted one (the look-ahead of step 4, checked at every node so that
    skipping rounds costs one check per choice rather than one per complete round). Without it,
    dead ends are memoised by the set of players already paired: whether the players left can
    be paired among themselves does not depend on how the others were paired.
    """
    n = len(played)
    taken = [False] * n
    if bye is not None:
        taken[bye] = True
    if viable is not None and not viable((), bye):
        return None
    stack: list[tuple[int, int]] = []
    dead: set[int] = set()
    mask = 0
    backtracked = False
    p = _next_free(taken, 0)
    start = p + 1
    while p < n:
        played_p = played[p]
        q = start
        while q < n:
            if not taken[q] and q not in played_p:
                taken[p] = taken[q] = True
                stack.append((p, q))
                bits = (1 << p) | (1 << q)
                if viable(stack, bye) if viable is not None else (mask ^ bits) not in dead:
                    mask ^= bits
                    break
                stack.pop()
                taken[p] = taken[q] = False
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
        backtracked = True
        p, q = stack.pop()
        mask ^= (1 << p) | (1 << q)
        taken[p] = taken[q] = False
        start = q + 1
    return Found(pairs=tuple(stack), backtracked=backtracked)


def _next_free(taken: Sequence[bool], start: int) -> int:
    n = len(taken)
    while start < n and taken[start]:
        start += 1
    return start
