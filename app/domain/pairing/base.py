"""What the engines of ``nearest`` and ``lim`` take and give back.

Such an engine has one function of the type ``PairFunction``:
``pair_round(order, history, context) -> RoundPairing``. ``order`` is the standings order of
the active players to pair (one group in the groups variant), best first; ``by_standings``
makes it a system's entry point (``interface.PairRound``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.explanation import NO_EXPLANATION, RoundExplanation
from app.domain.types import Pair, PlayerId, PointsTable, RoundNumber, Score


@dataclass(frozen=True, slots=True)
class Entrant:
    """An active player as a pairing system sees them, at their place in the order."""

    id: PlayerId
    points: Score
    byes: int
    start_number: int


@dataclass(frozen=True, slots=True)
class PairingHistory:
    """Who has met whom in earlier Swiss rounds (of this group), forfeited matches included."""

    opponents: Mapping[PlayerId, frozenset[PlayerId]]

    def have_played(self, a: PlayerId, b: PlayerId) -> bool:
        return b in self.opponents.get(a, frozenset())


@dataclass(frozen=True, slots=True)
class PairingContext:
    """The round being paired.

    ``later_rounds`` is the number of Swiss rounds still to play *after* this one (the format's
    rounds minus the rounds generated, this one included; an early final phase is not
    anticipated). ``rng_seed`` seeds every draw of this round and group (``random.Random``).
    ``deadline`` bounds the search: past it the system raises ``PairingTimeout``.
    """

    round_number: RoundNumber
    later_rounds: int
    rng_seed: str
    points: PointsTable
    deadline: Deadline = NO_DEADLINE


@dataclass(frozen=True, slots=True)
class RoundPairing:
    """A paired round of one group.

    ``pairs`` are written better-ranked first, in board order (boards sorted by the better
    player's rank). ``rematch_pairs`` is non-empty only in a fallback round. ``path`` names the
    rules of the system that produced the round, in the order they acted; ``explanation`` the
    steps that placed each pair (``board`` = its index in ``pairs`` + 1) and the bye.
    """

    pairs: tuple[Pair, ...]
    bye: PlayerId | None
    rematch_pairs: tuple[Pair, ...] = ()
    path: tuple[str, ...] = ()
    explanation: RoundExplanation = NO_EXPLANATION

    @property
    def is_fallback(self) -> bool:
        return bool(self.rematch_pairs)


class PairFunction(Protocol):
    def __call__(
        self,
        order: Sequence[Entrant],
        history: PairingHistory,
        context: PairingContext,
    ) -> RoundPairing: ...


FALLBACK = "fallback"


def bye_candidates(order: Sequence[Entrant]) -> list[Entrant]:
    """The bye rule's candidates in the order they are tried (``pairing-nearest.md`` step 1).

    The players without a bye from the lowest-ranked up, then those with one from the
    lowest-ranked up. Empty when the number of players is even.
    """
    if len(order) % 2 == 0:
        return []
    from_bottom = list(reversed(order))
    return [e for e in from_bottom if e.byes == 0] + [e for e in from_bottom if e.byes > 0]


def pair_by_order(
    order: Sequence[Entrant], history: PairingHistory, *, bye: PlayerId | None
) -> RoundPairing:
    """The marked fallback: pair two by two following the order (1st–2nd, 3rd–4th, …).

    Used only when no rematch-free round exists; the repeated pairs are listed.
    """
    players = [e.id for e in order if e.id != bye]
    pairs = tuple(Pair(players[i], players[i + 1]) for i in range(0, len(players) - 1, 2))
    rematches = tuple(p for p in pairs if history.have_played(p.higher, p.lower))
    return RoundPairing(pairs=pairs, bye=bye, rematch_pairs=rematches, path=(FALLBACK,))
