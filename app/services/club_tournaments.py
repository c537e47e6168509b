"""A club's tournaments: made with a club key, their players from the register."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.services import clubs, register, tournaments


def create(
    session: Session,
    write: clubs.ClubWrite,
    *,
    name: str,
    players: list[dict[str, Any]],
    fields: dict[str, Any],
) -> tournaments.Created:
    """A tournament of the club, with its own organizer token as any (the club's keys are its
    organizers too). Under the club's lock, so a merge cannot move an entry in between."""
    version = clubs.lock(session, write)
    entrants = register.entrants(session, write.club_id, players)
    created = tournaments.create(
        session,
        name=name,
        players=[e.player for e in entrants],
        fields=fields,
        club_id=write.club_id,
        actor=write.actor,
    )
    register.link(session, write.club_id, created.id, entrants)
    clubs.changed(
        session, write, version, "club-tournaments-create", tournament_id=created.id, name=name
    )
    return created
