"""Rounds: generate the next Swiss round (all groups at once)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.domain.matches import SwissRound
from app.domain.tournament import Tournament
from app.services import commands, events


def generate(session: Session, tournament_id: str) -> tuple[Tournament, SwissRound]:
    """The caller holds the tournament's row lock, so two calls cannot both pass the checks."""
    return commands.run(
        session,
        tournament_id,
        "rounds-generate",
        lambda t: t.generate_round(),
        detail=lambda r: {"round": r.number},
        watch=lambda _: lambda t, r: [(events.ROUND_GENERATED, events.round_data(t, r))],
    )
