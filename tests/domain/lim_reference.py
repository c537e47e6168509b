"""Brute force for the ``lim`` tests: every rematch-free round, in depth-first order."""

from __future__ import annotations

from collections.abc import Iterator, Sequence, Set


def rematch_free_rounds(
    players: Sequence[int], met: Sequence[Set[int]]
) -> Iterator[list[tuple[int, int]]]:
    """The highest player takes each unmet player below, nearest first, recursively."""
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for other in rest:
        if other not in met[first]:
            for tail in rematch_free_rounds([p for p in rest if p != other], met):
                yield [(first, other), *tail]


def has_rematch_free_round(players: Sequence[int], met: Sequence[Set[int]]) -> bool:
    return next(rematch_free_rounds(players, met), None) is not None
