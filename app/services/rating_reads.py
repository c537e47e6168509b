"""A club's ratings, read: the list (best first, paged along its index), one register entry's
history, and the ratings a new tournament may seed by. They are written by
``app.services.ratings``."""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import and_, or_, select
from sqlalchemy.orm import Session

from app.errors import ClubPlayerNotFound, ForeignCursor
from app.services.ratings import CP, CR, CRH, CRP
from app.services.storage import T
from app.services.views import aware


@dataclass(frozen=True, slots=True)
class Standing:
    """A line of the club's rating list."""

    club_player_id: int
    name: str
    rating: float
    deviation: float | None
    games: int
    last_change: float
    last_tournament_id: str


@dataclass(frozen=True, slots=True)
class Step:
    """A player's rating after one tournament, and how they did there."""

    tournament_id: str
    tournament_name: str
    rated_at: datetime
    rating_before: float
    rating: float
    deviation: float | None
    games: int
    score: float
    performance: float


def _encode(rating: float, entry_id: int) -> str:
    return base64.urlsafe_b64encode(f"cr:{rating!r}:{entry_id}".encode()).decode()


def _decode(cursor: str) -> tuple[float, int]:
    try:
        kind, rating, entry_id = base64.urlsafe_b64decode(cursor.encode()).decode().split(":")
        if kind == "cr" and entry_id.isdigit():
            return float(rating), int(entry_id)
    except (ValueError, UnicodeDecodeError):
        pass
    raise ForeignCursor


def page(
    session: Session, club_id: str, *, limit: int, cursor: str | None
) -> tuple[list[Standing], str | None]:
    """One page of the club's rated entries, best rating first (equal ratings: the higher entry
    id first, so the index on (club, rating, entry) is read backwards), and the next page's
    cursor."""
    query = (
        select(
            CR.c.club_player_id,
            CP.c.name,
            CR.c.rating,
            CR.c.deviation,
            CR.c.games,
            CR.c.last_change,
            CR.c.last_tournament_id,
        )
        .join(CP, CP.c.id == CR.c.club_player_id)
        .where(CR.c.club_id == club_id)
        .order_by(CR.c.rating.desc(), CR.c.club_player_id.desc())
    )
    if cursor is not None:
        rating, entry_id = _decode(cursor)
        query = query.where(
            or_(
                CR.c.rating < rating,
                and_(CR.c.rating == rating, CR.c.club_player_id < entry_id),
            )
        )
    rows = session.execute(query.limit(limit + 1)).all()
    found = [Standing(*r) for r in rows[:limit]]
    more = len(rows) > limit
    return found, _encode(found[-1].rating, found[-1].club_player_id) if more else None


def history(
    session: Session, club_id: str, entry_id: int, *, limit: int, after: int | None
) -> tuple[list[Step], int | None]:
    """The entry's rating after each rated tournament it played, oldest first (a page after
    the period ``after``), and the last period's id when there are more."""
    found = session.execute(
        select(CP.c.id).where(CP.c.club_id == club_id, CP.c.id == entry_id)
    ).first()
    if found is None:
        raise ClubPlayerNotFound(
            f"no player {entry_id} in this club's register (never entered, or merged into "
            "another entry)"
        )
    query = (
        select(
            CRH.c.period_id,
            CRP.c.tournament_id,
            T.c.name,
            CRP.c.rated_at,
            CRH.c.rating_before,
            CRH.c.rating,
            CRH.c.deviation,
            CRH.c.games,
            CRH.c.score_halves,
            CRH.c.performance,
        )
        .join(CRP, CRP.c.id == CRH.c.period_id)
        .join(T, T.c.id == CRP.c.tournament_id)
        .where(CRH.c.club_player_id == entry_id)
        .order_by(CRH.c.period_id)
    )
    if after is not None:
        query = query.where(CRH.c.period_id > after)
    rows = session.execute(query.limit(limit + 1)).all()
    steps = [
        Step(r[1], r[2], aware(r[3]), r[4], r[5], r[6], r[7], r[8] / 2, r[9]) for r in rows[:limit]
    ]
    return steps, rows[limit - 1][0] if len(rows) > limit else None


def seeding_ratings(session: Session, entry_ids: Sequence[int]) -> dict[int, int]:
    """The club rating of each of ``entry_ids`` that has one, rounded: what a new tournament
    seeded by the club rating gives those players as their rating."""
    if not entry_ids:
        return {}
    rows = session.execute(
        select(CR.c.club_player_id, CR.c.rating).where(CR.c.club_player_id.in_(list(entry_ids)))
    )
    return {r[0]: max(0, round(r[1])) for r in rows}
