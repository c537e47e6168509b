"""Rounds: generate the next Swiss round (all groups at once), or pair it by hand; pair the
latest one again by hand, or undo it."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.collector import paused
from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.manual_rounds import HandPairing
from app.domain.matches import SwissRound
from app.domain.tournament import Tournament
from app.domain.types import RoundNumber
from app.services import access, commands, events, storage


def generate(
    session: Session, write: access.Write, *, deadline: Deadline = NO_DEADLINE
) -> tuple[Tournament, SwissRound]:
    """The round is paired outside any lock; two calls cannot both save one (``commands.run``).

    Past ``deadline`` the pairing raises ``PairingTimeout`` and the request saves nothing.
    """
    return commands.run(
        session,
        write,
        "rounds-generate",
        lambda t: _paired(t, deadline),
        detail=lambda r: {"round": r.number},
        watch=lambda _: lambda t, r: [(events.ROUND_GENERATED, events.round_data(t, r))],
    )


def preview(
    session: Session, tournament_id: str, *, deadline: Deadline = NO_DEADLINE
) -> tuple[Tournament, SwissRound]:
    """The round ``generate`` would make now, computed on the tournament as read and never saved.

    No lock, no audit, no event, no version change: the tournament is rebuilt from its rows and
    discarded. Generation depends only on that state and the tournament's seed, and match ids
    continue from the highest one, so generating next, with nothing changed, gives this round,
    match ids included. Errors as ``generate`` (``RoundIncomplete``, ``PairingTimeout``, …).
    """
    tournament = storage.load(session, tournament_id)
    return tournament, _paired(tournament, deadline)


def _paired(tournament: Tournament, deadline: Deadline) -> SwissRound:
    """The next round, paired with the cyclic collector paused (``app.collector``): a late
    round of a long event allocates hundreds of thousands of short-lived objects and leaves no
    cycle, while each collection that counting allocations runs meanwhile walks the loaded
    tournament and frees nothing (20-45 ms of the worst rounds of a 256-player long override)."""
    with paused():
        return tournament.generate_round(deadline=deadline)


def undo(session: Session, write: access.Write, number: int) -> tuple[Tournament, SwissRound]:
    """Take back the latest round (none of its results recorded); emits ``round.undone``."""

    def watch(before: Tournament) -> events.Describe:
        # The round's matches are gone after the undo: read the round before it.
        was = events.round_data(before, before.rounds[-1]) if before.rounds else {}
        return lambda after, _: [(events.ROUND_UNDONE, {**was, "status": after.status.value})]

    return commands.run(
        session,
        write,
        "rounds-undo",
        lambda t: t.undo_round(RoundNumber(number)),
        detail=lambda r: {"round": r.number},
        watch=watch,
    )


def pair_by_hand(
    session: Session, write: access.Write, pairing: HandPairing
) -> tuple[Tournament, SwissRound]:
    """The next round from the arbiter's boards and byes (``Tournament.pair_by_hand``): saved
    as a generated round is, audited with its checks, emitted as ``round.generated`` (its
    round ``manual``)."""
    return commands.run(
        session,
        write,
        "rounds-generate",
        lambda t: t.pair_by_hand(pairing),
        detail=lambda r: _manual_detail(r, pairing),
        watch=lambda _: lambda t, r: [(events.ROUND_GENERATED, events.round_data(t, r))],
    )


def repair(
    session: Session, write: access.Write, number: int, pairing: HandPairing
) -> tuple[Tournament, SwissRound]:
    """Replace the latest round's boards and byes by hand (``Tournament.repair_by_hand``);
    emits ``round.paired_manually`` with the round counted and how many matches it replaced."""

    def watch(before: Tournament) -> events.Describe:
        was = {m.id for m in before.round_matches(number)} if before.rounds else set()

        def describe(after: Tournament, swiss_round: SwissRound) -> list[events.NewEvent]:
            now = {m.id for m in after.round_matches(swiss_round.number)}
            removed = len(was - now)
            data = {**events.round_data(after, swiss_round), "removed_match_count": removed}
            return [(events.ROUND_PAIRED_MANUALLY, data)]

        return describe

    return commands.run(
        session,
        write,
        "rounds-pairing-replace",
        lambda t: t.repair_by_hand(RoundNumber(number), pairing),
        detail=lambda r: _manual_detail(r, pairing),
        watch=watch,
    )


def _manual_detail(swiss_round: SwissRound, pairing: HandPairing) -> dict[str, Any]:
    """The audit entry of a pairing by hand: the round, what was accepted, what it breaks."""
    return {
        "round": swiss_round.number,
        "manual": True,
        "accepted": sorted(str(rule) for rule in pairing.accept),
        "checks": [
            {"rule": str(c.rule), "severity": str(c.severity), "players": list(c.players)}
            for c in swiss_round.checks
        ],
    }
