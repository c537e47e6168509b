"""What every pairing system takes and gives back, and what it declares it can do.

A system is a package under ``app/domain/pairing/`` with one entry point of the type
``PairRound``: ``pair_round(request, constraints, *, deadline) -> GeneratedRound``. The request
is the tournament as it stands before the round; the constraints are what the arbiter adds to
the rules; the result is the round's matches, byes and explanation. ``registry.SYSTEMS``
registers each system with its ``Capabilities``, which the API, the checks and the pages read
instead of testing system names.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from app.domain.deadline import Deadline
from app.domain.forbidden import PairConstraint, PairKind
from app.domain.matches import GeneratedRound, Match, MatchId, SwissRound
from app.domain.settings import Settings
from app.domain.standings import StandingRow
from app.domain.types import PairingSystem, Player, PlayerId, RoundNumber


@dataclass(frozen=True, slots=True)
class RoundRequest:
    """Round ``number`` of a tournament, asked of a system: every player (withdrawn and late
    ones included), every match and earlier Swiss round, the standings of every player in
    standings order (all groups), the settings and format, and the id of the first new match."""

    number: RoundNumber
    players: Mapping[PlayerId, Player]
    matches: Sequence[Match]
    rounds: Sequence[SwissRound]
    standings: Sequence[StandingRow]
    settings: Settings
    swiss_rounds: int
    groups: int
    next_id: MatchId


@dataclass(frozen=True, slots=True)
class Constraints:
    """What the arbiter adds to the system's rules for a round: the forbidden pairs among its
    players (``forbidden.pair_constraints``, ``docs/rules.md``, "Forbidden pairings").

    A system keeps the ``hard`` pairs apart, as if they had met, or refuses the round with
    ``PairingImpossible`` naming them (``nearest`` and ``lim`` too: their marked fallback never
    pairs a hard pair). It ignores the ``soft`` ones: those are the concern of
    ``constrained.pair_constrained``, above every system, which hands them to the system as
    hard ones as long as the round can be paired so.
    """

    pairs: tuple[PairConstraint, ...] = ()

    @property
    def hard(self) -> tuple[PairConstraint, ...]:
        return tuple(c for c in self.pairs if c.kind is PairKind.HARD)

    @property
    def soft(self) -> tuple[PairConstraint, ...]:
        return tuple(c for c in self.pairs if c.kind is PairKind.SOFT)


NO_CONSTRAINTS = Constraints()


class PairRound(Protocol):
    """A system's entry point: the round ``request`` asks for, keeping ``constraints``; past
    ``deadline`` it raises ``PairingTimeout``, and a round the rules cannot pair raises
    ``PairingImpossible`` (``dutch``; ``nearest`` and ``lim`` fall back, marked)."""

    def __call__(
        self, request: RoundRequest, constraints: Constraints, *, deadline: Deadline
    ) -> GeneratedRound: ...


class Colours(StrEnum):
    """How a system's rounds are seated: ``balance`` (``colours.md``: home and away evened
    out, a lot otherwise), ``fide`` (C.04.3 Art. 5: colours are part of the pairing, with
    absolute criteria of their own) or ``rank``."""

    BALANCE = "balance"
    FIDE = "fide"
    RANK = "rank"
    """``dyp``: the team of the better placed of the four players is home."""


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a system can do, declared once at its registration.

    ``groups``: pairs the groups variant (each group on its own). ``colours``: its colour rule.
    ``absolute_criteria``: refuses a round it cannot pair by its absolute criteria
    (``PairingImpossible``) instead of falling back to a marked round with rematches.
    ``fide_numbers``: start numbers
    are pairing numbers by C.04.2 Art. 2 (rating, title, name), kept in that order when a name
    changes in registration and given to a late entry at their place.
    ``drawn_partners``: draws teams of two every round (DYP): a match is two against two
    (``Match.home_partner``, ``Match.away_partner``), the standings credit each of the four,
    and what is made for one player against one (pairing by hand, forbidden pairs, the
    explanation, TRF, the check) is refused (``NotForDyp``).
    """

    groups: bool
    colours: Colours
    absolute_criteria: bool
    fide_numbers: bool = False
    drawn_partners: bool = False


@dataclass(frozen=True, slots=True)
class System:
    """A registered pairing system: its name, its entry point, what it can do."""

    name: PairingSystem
    pair_round: PairRound
    capabilities: Capabilities
