"""Requested byes (C.04.1 Art. 3; ``docs/rules.md``, "Requested byes"): the rounds and kinds a
player may ask for, and what a bye scores once its round is generated."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from app.domain.errors import ByeNotAllowed, InvalidSettings, RoundLocked, UnknownRound, WrongStatus
from app.domain.types import (
    ByeKind,
    Player,
    PlayerId,
    PointsTable,
    RequestedBye,
    RoundNumber,
    Score,
)


def check_future_round(
    number: RoundNumber, *, current_round: int, swiss_rounds: int, final_phase_started: bool
) -> None:
    """A requested bye names a Swiss round of the format that is not generated yet."""
    if final_phase_started:
        raise WrongStatus(
            "the final phase has started, so no Swiss round follows: a bye belongs to a Swiss round"
        )
    if number <= current_round:
        raise RoundLocked(
            f"round {number} has already been paired: a bye is asked for before its round"
        )
    if number > swiss_rounds:
        raise UnknownRound(
            f"this tournament has {swiss_rounds} Swiss rounds: name one of those not paired yet"
        )


def with_bye(
    player: Player, number: RoundNumber, kind: ByeKind, *, allowed: frozenset[ByeKind]
) -> Player:
    """``player`` asking for a bye of ``kind`` in round ``number``, a kind the settings allow;
    asking again replaces the kind."""
    if kind not in allowed:
        listed = ", ".join(sorted(allowed)) or "none"
        raise ByeNotAllowed(
            f"this tournament does not give {kind} byes (allowed: {listed}): ask for an "
            "allowed kind, or change the tournament's allowed_byes first"
        )
    kept = [b for b in player.requested_byes if b.round != number]
    byes = tuple(sorted([*kept, RequestedBye(number, kind)], key=lambda b: b.round))
    return replace(player, requested_byes=byes)


def without_bye(player: Player, number: RoundNumber) -> Player:
    """``player`` with no bye asked for round ``number`` (none to take back is fine)."""
    return replace(
        player, requested_byes=tuple(b for b in player.requested_byes if b.round != number)
    )


def bye_points(kind: ByeKind, points: PointsTable) -> Score:
    """What a requested bye scores (C.04.1 Art. 3 leaves it to the regulations): a
    ``half_point`` bye a draw's points, a ``zero_point`` bye nothing."""
    return points.draw if kind is ByeKind.HALF_POINT else Score(0)


def check_allowed(players: Iterable[Player], allowed: frozenset[ByeKind]) -> None:
    """New settings keep every bye asked for: a kind is forbidden only once nobody asked for it."""
    for player in players:
        for bye in player.requested_byes:
            if bye.kind not in allowed:
                raise InvalidSettings(
                    f"{player.name} asked for a {bye.kind} bye in round {bye.round}: "
                    "cancel it before forbidding that kind"
                )


def bye_scores(
    players: Iterable[Player], *, rounds_generated: int, points: PointsTable
) -> list[tuple[RoundNumber, PlayerId, Score]]:
    """The byes asked for in the rounds generated so far, with what each scores
    (``bye_points``), for the standings."""
    return [
        (bye.round, p.id, bye_points(bye.kind, points))
        for p in players
        for bye in p.requested_byes
        if bye.round <= rounds_generated and p.in_round(bye.round)
    ]
