"""DYP, draw your partner: every round, teams of two drawn from individual players, then team
against team (issue 24; ``docs/rules.md``, "DYP").

A round is drawn in three steps, each exact:

1. **Byes.** The players beyond a multiple of four sit out: those with the fewest byes so far,
   the lowest placed among them.
2. **Partners.** A perfect matching of the others that repeats as few partnerships as possible
   (no repeat at all whenever a partnering without one exists), and among those pairs strong
   with weak: the player placed *i*-th from the top with the one placed *i*-th from the bottom,
   as nearly as the history allows.
3. **Opponents.** A perfect matching of the teams that repeats as few meetings of opponents as
   possible, and among those sets teams of the nearest strength against each other.

Both matchings are maximum-weight matchings (Edmonds' blossom method, as the Dutch engine uses),
with the criteria ordered by the size of their weights, so the work is polynomial in the field
and bounded by the ``Deadline`` like every pairing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.errors import PairingImpossible
from app.domain.pairing.dutch.matching import max_weight_matching
from app.domain.types import PlayerId

Team = tuple[PlayerId, PlayerId]
"""Two partners, the better placed first."""


@dataclass(frozen=True, slots=True)
class DypHistory:
    """What the rounds so far did: how often two players were partners, were opponents, and
    how many byes each had. Pairs are keyed by ``frozenset`` of the two ids."""

    partners: Mapping[frozenset[PlayerId], int] = field(default_factory=dict)
    opponents: Mapping[frozenset[PlayerId], int] = field(default_factory=dict)
    byes: Mapping[PlayerId, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class DypMatch:
    """Two drawn teams; ``home`` holds the better-placed player of the four."""

    home: Team
    away: Team


@dataclass(frozen=True, slots=True)
class DypRound:
    """A drawn round: its matches, best-placed first (board order), and the players sitting
    out."""

    matches: tuple[DypMatch, ...]
    byes: tuple[PlayerId, ...]
    repeated_partners: int
    """Partnerships of this round that were formed before (0 whenever that was possible)."""
    repeated_opponents: int
    """Meetings of two opponents of this round that happened before."""


def draw_round(
    order: Sequence[PlayerId], history: DypHistory, *, deadline: Deadline = NO_DEADLINE
) -> DypRound:
    """Draw a DYP round for the players of ``order``, best placed first (the caller places
    players level on the standings in its seeded random order)."""
    if len(order) < 4:
        raise PairingImpossible(
            f"a DYP round needs at least 4 players present, {len(order)} are", players=tuple(order)
        )
    byes = _byes(order, history)
    playing = [p for p in order if p not in byes]
    teams, repeated_partners = _partners(playing, history, deadline)
    matches, repeated_opponents = _opponents(teams, playing, history, deadline)
    return DypRound(tuple(matches), tuple(byes), repeated_partners, repeated_opponents)


def _byes(order: Sequence[PlayerId], history: DypHistory) -> list[PlayerId]:
    count = len(order) % 4
    place = {p: i for i, p in enumerate(order)}
    chosen = sorted(order, key=lambda p: (history.byes.get(p, 0), -place[p]))[:count]
    return sorted(chosen, key=place.__getitem__)


def _cheapest_perfect(
    size: int, cost: Mapping[tuple[int, int], int], deadline: Deadline
) -> list[tuple[int, int]]:
    """The perfect matching of the complete graph on ``size`` vertices (even) with the least
    total ``cost``: weights ``base − cost`` with ``base`` so large that every perfect matching
    outweighs every smaller one."""
    base = size * (max(cost.values(), default=0) + 1) + 1
    edges = [(u, v, base - c) for (u, v), c in cost.items()]
    mate = max_weight_matching(size, edges, check=deadline.check)
    return [(u, mate[u]) for u in range(size) if u < mate[u]]


def _partners(
    playing: Sequence[PlayerId], history: DypHistory, deadline: Deadline
) -> tuple[list[Team], int]:
    size = len(playing)
    spread = size  # balance costs are below this: |i + j − (size − 1)| < size
    cost: dict[tuple[int, int], int] = {}
    for i in range(size):
        for j in range(i + 1, size):
            repeats = 1 if history.partners.get(frozenset((playing[i], playing[j])), 0) else 0
            balance = abs(i + j - (size - 1))
            cost[i, j] = repeats * spread * size + balance
    pairs = _cheapest_perfect(size, cost, deadline)
    teams = [(playing[i], playing[j]) for i, j in sorted(pairs)]
    repeated = sum(1 for a, b in teams if history.partners.get(frozenset((a, b)), 0))
    return teams, repeated


def _opponents(
    teams: Sequence[Team], playing: Sequence[PlayerId], history: DypHistory, deadline: Deadline
) -> tuple[list[DypMatch], int]:
    place = {p: i for i, p in enumerate(playing)}
    strength = [place[a] + place[b] for a, b in teams]
    size = len(teams)
    spread = 2 * len(playing)  # strength differences are below this

    def met(a: Team, b: Team) -> int:
        """How many of the four meetings of ``a`` against ``b`` happened before."""
        return sum(1 for x in a for y in b if history.opponents.get(frozenset((x, y)), 0))

    cost = {
        (i, j): met(teams[i], teams[j]) * spread * size + abs(strength[i] - strength[j])
        for i in range(size)
        for j in range(i + 1, size)
    }
    pairs = _cheapest_perfect(size, cost, deadline)
    matches = [DypMatch(teams[i], teams[j]) for i, j in pairs]
    matches.sort(key=lambda m: place[m.home[0]])
    return matches, sum(met(m.home, m.away) for m in matches)
