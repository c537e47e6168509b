"""A season's later life: renamed or given another scoring rule (``update``), and deleted
(``delete``: its tournaments leave it and stay, as if each had been taken out of it).

Both are the club's writes (a club key), audited in the club's trail and told in its events.
Nothing is stored per rule, so a new rule re-ranks the table at its next read: the season's
version moves, and with it the table's ETag and read-cache key (``seasons.table_key``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete as delete_rows
from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.domain.seasons import DEFAULT_PLACE_POINTS, SeasonRule, SeasonScoring
from app.errors import PlacePointsWithoutPlaces, PreconditionFailed, SeasonNotFound
from app.services import audit, club_events, clubs, seasons
from app.services.storage import now

S, T = seasons.S, seasons.T


def update_season(
    session: Session,
    write: clubs.ClubWrite,
    season_id: int,
    fields: dict[str, Any],
    *,
    if_match: str | None = None,
) -> seasons.Season:
    """The fields given of ``name``, ``scoring``, ``place_points`` and ``best`` (``None``: every
    evening counts). A season that turns to ``places`` without a table keeps the one it had, or
    takes 25-18-15-…; one that leaves ``places`` drops its table; ``place_points`` for a season
    that is not ``places`` is 422 ``place_points_without_places``. A change moves the season's
    version and emits ``season.updated`` (``reason: "settings"``); the same values again change
    nothing."""
    seasons.read(session, write.club_id, season_id)  # 404 before any lock
    version = clubs.lock(session, write)
    season = _locked(session, write.club_id, season_id, if_match)
    name: str = fields.get("name") or season.name
    rule = _new_rule(season.rule, fields)
    old = season.rule
    values = {
        "name": (name, season.name),
        "scoring": (rule.scoring.value, old.scoring.value),
        "place_points": (list(rule.place_points), list(old.place_points)),
        "best": (rule.best, old.best),
    }
    changed = {field: new for field, (new, was) in values.items() if new != was}
    if not changed:
        return season
    session.execute(
        update(S)
        .where(S.c.id == season_id)
        .values(
            name=name,
            scoring=rule.scoring.value,
            place_points=list(rule.place_points),
            best=rule.best,
            version=season.version + 1,
        )
    )
    clubs.changed(session, write, version, "seasons-update", season_id=season_id, **changed)
    data = {"season_id": season_id, "tournament_id": None, "reason": "settings",
            "changed": sorted(changed)}  # fmt: skip
    club_events.emit(session, write.club_id, [(club_events.SEASON_UPDATED, data)])
    return seasons.read(session, write.club_id, season_id)


def _new_rule(old: SeasonRule, fields: dict[str, Any]) -> SeasonRule:
    scoring = SeasonScoring(fields.get("scoring") or old.scoring)
    table: tuple[int, ...]
    if fields.get("place_points") is not None:
        if scoring is not SeasonScoring.PLACES:
            raise PlacePointsWithoutPlaces(
                f"`place_points` is the table of the `places` rule and this season scores by "
                f"`{scoring.value}`: send `scoring: places` with it"
            )
        table = tuple(fields["place_points"])
    elif scoring is SeasonScoring.PLACES:
        table = old.place_points if old.scoring is SeasonScoring.PLACES else DEFAULT_PLACE_POINTS
    else:
        table = ()
    best = fields.get("best", old.best)
    return SeasonRule(scoring, table, best)


def delete_season(
    session: Session, write: clubs.ClubWrite, season_id: int, *, if_match: str | None = None
) -> list[str]:
    """The season goes; its tournaments leave it and stay (finished or not, with their
    results, evenings and ratings), each as ``PUT …/season {"season_id": null}`` would take it
    out: its version moves and its trail gets ``tournaments-season``. ``season.deleted`` in the
    club's events; the tournaments that left it.

    Locks: the season's tournaments first (in id order), then the club, the order a
    tournament's write takes them (a result that finishes an evening of the season locks its
    tournament, then the club to tell the season). A tournament that joined between the two
    is locked without waiting (a write holding it may be waiting for the club: 503 ``busy``,
    try again) rather than risk a deadlock."""
    seasons.read(session, write.club_id, season_id)  # 404 before any lock
    members = set(_lock_tournaments(session, season_id))
    version = clubs.lock(session, write)
    season = _locked(session, write.club_id, season_id, if_match)
    leaving = list(
        session.execute(select(T.c.id).where(T.c.season_id == season_id).order_by(T.c.id)).scalars()
    )
    late = sorted(set(leaving) - members)
    if late:
        session.execute(select(T.c.id).where(T.c.id.in_(late)).with_for_update(nowait=True))
    session.execute(
        update(T)
        .where(T.c.season_id == season_id)
        .values(season_id=None, version=T.c.version + 1, updated_at=now())
    )
    audit.record_each(
        session, leaving, "tournaments-season", actor=write.actor, season_id=None,
        deleted_season_id=season_id,
    )  # fmt: skip
    session.execute(delete_rows(S).where(S.c.id == season_id))
    clubs.changed(
        session, write, version, "seasons-delete", season_id=season_id, name=season.name,
        tournaments=leaving,
    )  # fmt: skip
    data = {"season_id": season_id, "tournaments": len(leaving)}
    club_events.emit(session, write.club_id, [(club_events.SEASON_DELETED, data)])
    return leaving


def _lock_tournaments(session: Session, season_id: int) -> list[str]:
    """The season's tournaments, locked in id order (PostgreSQL; on SQLite the club's lock,
    the database's write lock, covers them)."""
    query = select(T.c.id).where(T.c.season_id == season_id).order_by(T.c.id)
    return list(session.execute(query.with_for_update()).scalars())


def _locked(session: Session, club_id: str, season_id: int, if_match: str | None) -> seasons.Season:
    """The season read again under the club's lock (deleted meanwhile: 404), at the version
    ``If-Match`` names if one is given (else 412)."""
    try:
        season = seasons.read(session, club_id, season_id)
    except SeasonNotFound:
        raise SeasonNotFound(f"season {season_id} was deleted while this request waited") from None
    if if_match is not None:
        tags = {t.strip().removeprefix("W/") for t in if_match.split(",")}
        if "*" not in tags and f'"{season.version}"' not in tags:
            raise PreconditionFailed(
                f'the season changed: it is at ETag "{season.version}", not {if_match}; read it '
                "again, check the change, then send the new ETag in `If-Match`"
            )
    return season
