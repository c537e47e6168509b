"""Can the players not yet paired still all be paired? (C.04.3 Art. 2.2, criterion C4.)

The completion criterion asks, at every bracket, that a pairing obeying the absolute criteria
C1–C3 still exists for everybody left, with at most one player unpaired, who must be able to
take the pairing-allocated bye (C2, C5). That is a question about a *maximum cardinality
matching* in the graph of allowed meetings, answered by the blossom search the other systems
use (``matching.Matching``) on the graph as bit sets (``Criteria.graph``): in a Swiss field
almost everybody may still meet almost everybody, and a bit set scans a player's thousands of
possible opponents in one operation.

A round asks it of many sets of players, each the last one less a few paired and plus a few
moved down: the graph of the whole round is built once and each set is a mask of it, and each
search starts from the pairs last found for its players (``Shared.mate``) that are still among
the set. Only the searches' length depends on that start.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from app.domain.pairing.dutch.criteria import Criteria
from app.domain.pairing.matching import Matching, bits, mask

__all__ = ["MaximumMatching", "completable", "maximum_matching"]


class MaximumMatching:
    """A maximum matching of ``vertices`` (players by index) in the graph of allowed meetings.

    ``size`` is its number of pairs; ``exposable()`` lists the vertices that some maximum
    matching leaves unpaired (Gallai–Edmonds): only they can take the bye.
    """

    def __init__(
        self,
        criteria: Criteria,
        vertices: Sequence[int],
        apart: Collection[int] = (),
        *,
        until_left: int | None = None,
    ) -> None:
        graph = criteria.graph()
        if apart:
            together = mask(apart)
            graph = graph.copy()
            for v in apart:
                graph[v] &= ~together
        shared = criteria.shared
        self._matching = Matching(graph, mask(vertices), start=shared.mate, until_left=until_left)
        # The start keeps the pairs found for the players of other sets: a small set (a
        # bracket, the players moving down and the next scoregroup) must not leave the next
        # big one (everybody below) to start from nothing.
        if not shared.mate:
            shared.mate = [-1] * len(graph)
        # It stays a matching: a player of the set paired before with one outside leaves
        # that one unpaired.
        start, mate = shared.mate, self._matching.mate
        for v in vertices:
            old = start[v]
            if old != -1 and start[old] == v:
                start[old] = -1
        for v in vertices:
            start[v] = mate[v]
        self.size = (len(vertices) - self._matching.exposed.bit_count()) // 2
        self.short = self._matching.short
        """Stopped at ``until_left`` players certain to be left: ``size`` is then less than
        a maximum matching's (``Matching``)."""

    def exposable(self) -> set[int]:
        """Every vertex left unpaired by at least one maximum matching."""
        return set(bits(self._matching.left_out_by_some()))


def maximum_matching(
    criteria: Criteria, vertices: Sequence[int], *, apart: Collection[int] = ()
) -> MaximumMatching:
    """A maximum matching of ``vertices`` where ``criteria.allowed`` says who may meet, and
    players of ``apart`` may not meet each other."""
    return MaximumMatching(criteria, vertices, apart)


def completable(criteria: Criteria, players: Sequence[int]) -> bool:
    """C4 for ``players``: all paired, or all but one who may take the bye (C2, C5). The
    search stops at the first player too many that no maximum matching pairs."""
    matching = MaximumMatching(criteria, players, until_left=len(players) % 2)
    if matching.short:
        return False
    if len(players) % 2 == 0:
        return matching.size == len(players) // 2
    if matching.size < len(players) // 2:
        return False
    return any(criteria.candidate[v] for v in matching.exposable())
