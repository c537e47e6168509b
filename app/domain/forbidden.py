"""Forbidden pairings (``docs/rules.md``, "Forbidden pairings"): two players who must not meet
(``hard``), or should not unless the round cannot be paired otherwise (``soft``).

They come from two places: explicit pairs the organizer lists, and, when the tournament's
``avoid_same_team`` is ``soft`` or ``hard``, every two players of the same ``team`` (club,
school, family). ``pair_constraints`` merges both into the constraints of one round: one per
two players, the stricter kind winning.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import NewType

from app.domain.errors import (
    DuplicateForbiddenPair,
    ForbiddenPairWithItself,
    InvalidSettings,
    TooManyForbiddenPairs,
    UnknownPlayer,
)
from app.domain.types import Player, PlayerId

__all__ = [
    "MAX_FORBIDDEN_PAIRS",
    "MAX_TEAM_LENGTH",
    "ForbiddenPair",
    "ForbiddenPairId",
    "PairConstraint",
    "PairKind",
    "TeamRule",
    "clean_team",
    "new_pair",
    "pair_constraints",
]

ForbiddenPairId = NewType("ForbiddenPairId", int)
MAX_FORBIDDEN_PAIRS = 4096
"""Explicit pairs a tournament keeps at most: as many as its players may be."""
MAX_TEAM_LENGTH = 40


class PairKind(StrEnum):
    """``hard``: never paired, as if the two had met. ``soft``: avoided unless the round
    cannot be paired otherwise."""

    HARD = "hard"
    SOFT = "soft"


class TeamRule(StrEnum):
    """The tournament's ``avoid_same_team``: whether two players of one team are a forbidden
    pair, and of which kind."""

    OFF = "off"
    SOFT = "soft"
    HARD = "hard"


@dataclass(frozen=True, slots=True)
class ForbiddenPair:
    """A pair the organizer listed; ``first`` is the lower player id."""

    id: ForbiddenPairId
    first: PlayerId
    second: PlayerId
    kind: PairKind

    @property
    def players(self) -> tuple[PlayerId, PlayerId]:
        return (self.first, self.second)


@dataclass(frozen=True, slots=True)
class PairConstraint:
    """Two players who may not (``hard``) or should not (``soft``) meet in the round being
    paired; ``first`` is the lower id. ``pair_id`` names the explicit pair it comes from,
    ``team`` the team both are in (either may be set, or both)."""

    first: PlayerId
    second: PlayerId
    kind: PairKind
    pair_id: ForbiddenPairId | None = None
    team: str | None = None

    @property
    def players(self) -> tuple[PlayerId, PlayerId]:
        return (self.first, self.second)


def clean_team(team: str | None) -> str | None:
    """A team's name: whitespace runs become one space; empty is no team; at most
    ``MAX_TEAM_LENGTH`` characters, none a control character. Teams compare exactly
    (after this cleaning), so "Rovereto" and "rovereto" are two teams."""
    if team is None:
        return None
    cleaned = " ".join(team.split())
    if not cleaned:
        return None
    if len(cleaned) > MAX_TEAM_LENGTH:
        raise InvalidSettings(
            f"a team's name has at most {MAX_TEAM_LENGTH} characters: shorten it "
            f"(this one has {len(cleaned)})"
        )
    if any(unicodedata.category(c) == "Cc" for c in cleaned):
        raise InvalidSettings("a team's name has no control characters: remove them")
    return cleaned


def new_pair(
    pairs: Mapping[ForbiddenPairId, ForbiddenPair],
    players: Mapping[PlayerId, Player],
    a: PlayerId,
    b: PlayerId,
    kind: PairKind,
) -> ForbiddenPair:
    """A new explicit pair of two players of the tournament, different, not listed yet (of
    either kind: delete it first to change its kind), with the next id."""
    for pid in (a, b):
        if pid not in players:
            raise UnknownPlayer(f"no player {pid} in this tournament: use an id from its list")
    if a == b:
        raise ForbiddenPairWithItself("a forbidden pair names two different players")
    first, second = min(a, b), max(a, b)
    for pair in pairs.values():
        if pair.players == (first, second):
            raise DuplicateForbiddenPair(
                f"{players[first].name} and {players[second].name} are already a "
                f"{pair.kind.value} forbidden pair (id {pair.id}): delete it first to change "
                "its kind"
            )
    if len(pairs) >= MAX_FORBIDDEN_PAIRS:
        raise TooManyForbiddenPairs(
            f"a tournament keeps at most {MAX_FORBIDDEN_PAIRS} forbidden pairs: use teams "
            "(`avoid_same_team`) for large groups"
        )
    next_id = ForbiddenPairId(max(pairs, default=0) + 1)
    return ForbiddenPair(next_id, first, second, kind)


def pair_constraints(
    players: Iterable[Player],
    pairs: Iterable[ForbiddenPair],
    team_rule: TeamRule,
) -> tuple[PairConstraint, ...]:
    """The forbidden pairs among ``players`` (those to pair in a round): the explicit pairs of
    two of them, and with ``team_rule`` ``soft`` or ``hard`` every two of them in one team.
    One constraint per two players: ``hard`` wins over ``soft``; sorted by the two ids."""
    present = {p.id: p for p in players}
    found: dict[tuple[PlayerId, PlayerId], PairConstraint] = {}
    for pair in pairs:
        if pair.first in present and pair.second in present:
            found[pair.players] = PairConstraint(pair.first, pair.second, pair.kind, pair.id)
    if team_rule is not TeamRule.OFF:
        kind = PairKind.HARD if team_rule is TeamRule.HARD else PairKind.SOFT
        teams: dict[str, list[PlayerId]] = {}
        for p in sorted(present.values(), key=lambda p: p.id):
            if p.team is not None:
                teams.setdefault(p.team, []).append(p.id)
        for team, members in teams.items():
            for i, first in enumerate(members):
                for second in members[i + 1 :]:
                    listed = found.get((first, second))
                    strict = kind if listed is None or listed.kind is PairKind.SOFT else listed.kind
                    found[first, second] = PairConstraint(
                        first, second, strict, listed.pair_id if listed else None, team
                    )
    return tuple(found[key] for key in sorted(found))
