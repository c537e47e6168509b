"""Rounds: generate the next Swiss round (all groups at once); undo the latest one."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.domain.deadline import NO_DEADLINE, Deadline
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
        lambda t: t.generate_round(deadline=deadline),
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
    return tournament, tournament.generate_round(deadline=deadline)


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
