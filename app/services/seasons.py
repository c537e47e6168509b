"""A club's seasons: create, list and read them, a tournament joining or leaving one, and the
season table (``app.domain.seasons``) over the season's finished evenings.

The table reads the evenings kept by ``app.services.evenings`` (rows written when a club
tournament finishes): the season's tournaments, their placings with the register entry each
player is now and, only when players are level on score, evenings and best place, the season's
games (summed per pair of tournament players when they were stored), read as games between
entries: three indexed queries at most, whatever the number of rounds. Placings and games name
a tournament's player, read as the entry of ``player.club_player_id`` at read time, so after a
merge of two register entries the table is as if they had always been one.
"""

from __future__ import annotations

from collections.abc import Hashable, Set
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from app.collector import paused
from app.domain.ratings.games import Game
from app.domain.seasons import (
    DEFAULT_PLACE_POINTS,
    Evening,
    Placing,
    SeasonRow,
    SeasonRule,
    SeasonScoring,
    season_standings,
)
from app.domain.types import Status
from app.errors import NotAClubTournament, SeasonFull, SeasonNotFound
from app.models import ClubPlayerRow
from app.models import SeasonRow as SeasonTable
from app.services import access, club_events, clubs, commands, evenings, storage
from app.services.storage import now
from app.services.views import aware

S = SeasonTable.__table__  # type: ignore[attr-defined]
CP = ClubPlayerRow.__table__  # type: ignore[attr-defined]
T, P, EP, EG = storage.T, storage.P, evenings.EP, evenings.EG

MAX_EVENINGS = 366
"""Tournaments a season may hold (one an evening for a year): its table stays one bounded read."""


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    club_id: str
    name: str
    rule: SeasonRule
    version: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SeasonEvening:
    """A tournament of the season: ``counted`` once it is finished."""

    tournament_id: str
    name: str
    status: Status
    created_at: datetime
    version: int

    @property
    def counted(self) -> bool:
        return self.status is Status.FINISHED


@dataclass(frozen=True, slots=True)
class Line:
    """A season table row with the register entry's name."""

    row: SeasonRow[int]
    name: str


@dataclass(frozen=True, slots=True)
class Table:
    season: Season
    evenings: list[SeasonEvening]
    lines: list[Line]


_SEASON = select(
    S.c.id, S.c.club_id, S.c.name, S.c.scoring, S.c.place_points, S.c.best, S.c.version,
    S.c.created_at,
)  # fmt: skip


def _season(row: Any) -> Season:
    rule = SeasonRule(SeasonScoring(row.scoring), tuple(row.place_points), row.best)
    return Season(row.id, row.club_id, row.name, rule, row.version, aware(row.created_at))


def create(
    session: Session,
    write: clubs.ClubWrite,
    *,
    name: str,
    scoring: SeasonScoring,
    place_points: list[int] | None,
    best: int | None,
) -> Season:
    """A new season of the club (club key), with no evening yet; ``places`` without a table
    scores 25-18-15-12-10-8-6-4-2-1."""
    version = clubs.lock(session, write)
    table = list(place_points or DEFAULT_PLACE_POINTS) if scoring is SeasonScoring.PLACES else []
    season_id: int = session.execute(
        insert(S)
        .values(
            club_id=write.club_id,
            name=name,
            scoring=scoring.value,
            place_points=table,
            best=best,
            version=1,
            created_at=now(),
        )
        .returning(S.c.id)
    ).scalar_one()
    clubs.changed(session, write, version, "seasons-create", season_id=season_id, name=name)
    return read(session, write.club_id, season_id)


def read(session: Session, club_id: str, season_id: int) -> Season:
    """404 for no such club, or no such season in it."""
    clubs.read(session, club_id)
    row = session.execute(_SEASON.where(S.c.id == season_id, S.c.club_id == club_id)).first()
    if row is None:
        raise SeasonNotFound(
            f"no season {season_id} in this club: GET /v1/clubs/{club_id}/seasons lists them"
        )
    return _season(row)


def page(session: Session, club_id: str, *, after: int | None, limit: int) -> list[Season]:
    """The club's seasons oldest first, from after the id ``after`` (``limit`` of them)."""
    clubs.read(session, club_id)
    query = _SEASON.where(S.c.club_id == club_id)
    if after is not None:
        query = query.where(S.c.id > after)
    return [_season(r) for r in session.execute(query.order_by(S.c.id).limit(limit))]


def join(session: Session, write: access.Write, season_id: int | None) -> int | None:
    """The tournament joins the season ``season_id`` of its club (``None``: leaves its season);
    by its organizer or a key of its club. A tournament without a club has no season (422
    ``not_a_club_tournament``), another club's season is none (404 ``season_not_found``), a
    season holds at most ``MAX_EVENINGS`` tournaments (409 ``season_full``, counted under the
    club's lock: ``claim_room``). Audited in the tournament's trail; a finished tournament
    changes both tables (``season.updated`` for the season left and the season joined); the
    season it left, if any."""
    header = access.read_header(session, write.tournament_id)
    club_id = header.club_id
    if club_id is None:
        raise NotAClubTournament(
            "this tournament belongs to no club: only a club's tournaments join its seasons"
        )
    if season_id is not None:
        read(session, club_id, season_id)
    before: int | None = None

    def under_lock() -> None:  # the tournament's lock is held: its season cannot move now
        nonlocal before
        before = session.execute(
            select(T.c.season_id).where(T.c.id == write.tournament_id)
        ).scalar_one_or_none()
        if season_id is not None and season_id != before:
            claim_room(session, club_id, season_id)

    tournament, _ = commands.run(
        session,
        write,
        "tournaments-season",
        lambda _: None,
        detail={"season_id": season_id},
        columns={"season_id": season_id},
        under_lock=under_lock,
    )
    # the season joined is told by the write's own evening (``evenings.refresh``); the one left
    if before is not None and before != season_id and tournament.status is Status.FINISHED:
        evenings.season_updated(session, club_id, before, write.tournament_id)
    return before


def check_room(session: Session, club_id: str, season_id: int) -> None:
    """A new tournament of the club may be made in the season (the caller holds the club's
    lock): it is one of the club's (404 ``season_not_found``) and not full (409
    ``season_full``)."""
    read(session, club_id, season_id)
    claim_room(session, club_id, season_id)


def claim_room(session: Session, club_id: str, season_id: int) -> None:
    """Under the club's row lock, kept to the end of the transaction: the season still exists
    (404 ``season_not_found``: deleted while the write waited) and holds fewer than
    ``MAX_EVENINGS`` tournaments (409 ``season_full``). Every write that adds a tournament to a
    season counts here, so two of them count one after the other: the second sees the first's
    tournament. A tournament's write calls it under the tournament's lock (tournament, then
    club, the order a finishing result takes them)."""
    club_events.lock_club(session, club_id)
    found = session.execute(
        select(S.c.id).where(S.c.id == season_id, S.c.club_id == club_id)
    ).scalar_one_or_none()
    if found is None:
        raise SeasonNotFound(f"season {season_id} was deleted: GET …/seasons lists the others")
    count = session.execute(
        select(func.count()).select_from(T).where(T.c.season_id == season_id)
    ).scalar_one()
    if count >= MAX_EVENINGS:
        raise SeasonFull(f"a season holds at most {MAX_EVENINGS} tournaments: start a new season")


def evenings_of(session: Session, season: Season) -> list[SeasonEvening]:
    """The season's tournaments in the order they were made (the evenings' order)."""
    rows = session.execute(
        select(T.c.id, T.c.name, T.c.status, T.c.created_at, T.c.version)
        .where(T.c.season_id == season.id, T.c.club_id == season.club_id)
        .order_by(T.c.created_at, T.c.id)
    )
    return [
        SeasonEvening(r.id, r.name, Status(r.status), aware(r.created_at), r.version) for r in rows
    ]


def table_key(session: Session, season: Season, found: list[SeasonEvening]) -> Hashable:
    """What the table depends on: the season, the club's version (register names and merges
    move it) and each evening's version; a body made for one key stays right while it is it."""
    club = clubs.read(session, season.club_id)
    return (
        "season",
        season.id,
        season.version,
        club.version,
        tuple((e.tournament_id, e.version) for e in found),
    )


def table(session: Session, season: Season, found: list[SeasonEvening]) -> Table:
    """The season table over the finished evenings of ``found`` (in-progress ones are listed,
    not counted), by the season's rule, each player the register entry they are now.

    The cyclic collector is paused meanwhile (``app.collector``): over 100 evenings the table
    reads some 10,000 rows that all live until it is made, and the collections their
    allocations set off scanned the process for nothing (a full one now and then: the slow
    reads of the benchmark)."""
    with paused():
        return _table(session, season, found)


def _table(session: Session, season: Season, found: list[SeasonEvening]) -> Table:
    counted = [e.tournament_id for e in found if e.counted]
    placings = session.execute(
        select(EP.c.tournament_id, EP.c.player_number, P.c.club_player_id, CP.c.name,
               EP.c.place, EP.c.points, EP.c.matches)
        .join(T, T.c.id == EP.c.tournament_id)
        .join(P, (P.c.tournament_id == EP.c.tournament_id) & (P.c.number == EP.c.player_number))
        .join(CP, CP.c.id == P.c.club_player_id)
        .where(T.c.season_id == season.id, T.c.club_id == season.club_id)
    ).all()  # fmt: skip
    by_evening: dict[str, list[Placing[int]]] = {tid: [] for tid in counted}
    names: dict[int, str] = {}
    entry_at: dict[tuple[str, int], int] = {}  # a tournament's player: the entry it is now
    for tid, number, entry, name, place, points, matches in placings:
        evening = by_evening.get(tid)
        if evening is not None:
            evening.append(Placing(entry, place, points, matches))
            names[entry] = name
            entry_at[(tid, number)] = entry
    season_evenings = [
        Evening(tuple(sorted(by_evening[tid], key=lambda p: p.place))) for tid in counted
    ]

    def games_among(tied: Set[int]) -> list[Game[int]]:
        return _games_among(session, season, tied, entry_at)

    rows = season_standings(season_evenings, season.rule, games_among=games_among)
    return Table(season, found, [Line(r, names[r.player]) for r in rows])


def _games_among(
    session: Session, season: Season, tied: Set[int], entry_at: dict[tuple[str, int], int]
) -> list[Game[int]]:
    """The season's games between two of the ``tied`` register entries, summed per pair, in
    points. SQL finds the games the tied entries played this season (through the register
    index of their tournament players: a few rows per evening each, not the whole season's
    games); the opponent is read as the entry it is now through ``entry_at``, so a merge reads
    through, and pairs are summed here."""
    query = (
        select(P.c.club_player_id, EG.c.tournament_id, EG.c.opponent_number, EG.c.score)
        .join(T, T.c.id == EG.c.tournament_id)
        .join(P, (P.c.tournament_id == EG.c.tournament_id) & (P.c.number == EG.c.player_number))
        .where(T.c.season_id == season.id, T.c.club_id == season.club_id)
    )
    if len(tied) <= MAX_LISTED:
        query = query.where(P.c.club_player_id.in_(sorted(tied)))
    summed: dict[tuple[int, int], int] = {}
    for entry, tid, opponent, score in session.execute(query).all():
        against = entry_at.get((tid, opponent))
        if against is not None and entry in tied and against in tied:
            summed[(entry, against)] = summed.get((entry, against), 0) + score
    return [Game(a, b, Fraction(score, 2)) for (a, b), score in summed.items()]


MAX_LISTED = 1000
"""Tied entries named in the games query's ``IN`` list; more, and every game of the season is
read."""
