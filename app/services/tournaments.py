"""Tournaments: create, list, change settings, delete."""

from __future__ import annotations

import base64
import re
import secrets
import string
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from sqlalchemy import case, delete, func, insert, or_, select
from sqlalchemy.orm import Session

from app.domain.forbidden import TeamRule
from app.domain.formats import FinalPhaseKind, FormatPreset, GroupAssignment, GroupsSetting
from app.domain.pairing.dutch.types import CHESS_POINTS
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import (
    ByeKind,
    Entry,
    InitialColour,
    PairingSystem,
    PointsTable,
    Score,
    Tiebreak,
)
from app.errors import ForeignCursor
from app.inputs import TOURNAMENT_ID
from app.services import access, audit, board_codes, commands, events, ratings, storage
from app.services import players as players_service

SEED_LIMIT = 2**53
"""Seeds stay exact in JavaScript clients."""


@dataclass(frozen=True, slots=True)
class Created:
    id: str
    token: str
    created_at: datetime
    tournament: Tournament


def half_points(points: dict[str, float], *, base: PointsTable) -> PointsTable:
    """The points given, in half-points; a key left out keeps its value in ``base``."""
    return replace(base, **{key: Score(round(value * 2)) for key, value in points.items()})


def groups_setting(groups: dict[str, Any] | None) -> GroupsSetting | None:
    if groups is None:
        return None
    manual = groups.get("manual")
    return GroupsSetting(
        GroupAssignment(groups["assignment"]),
        tuple(tuple(n) for n in manual) if manual is not None else None,
    )


_SETTING_KINDS: dict[str, Callable[[Any], Any]] = {
    "pairing": PairingSystem,
    "tiebreak": Tiebreak,
    "format": FormatPreset,
    "swiss_rounds": int,
    "final_phase": FinalPhaseKind,
    "top_cut_size": int,
    "third_place": bool,
    "grand_final_reset": bool,
    "seed": int,
    "initial_colour": InitialColour,
    "allowed_byes": lambda kinds: frozenset(ByeKind(k) for k in kinds),
    "avoid_same_team": TeamRule,
    "pair_checked_in_only": bool,
    "round_duration": int,
    "entry": Entry,
}


def default_points(pairing: PairingSystem) -> PointsTable:
    """The table a new tournament gets when none is given: chess (1, ½, 0, PAB 1) for
    ``dutch``, 3/1/0/3 for the others."""
    return CHESS_POINTS if pairing is PairingSystem.DUTCH else PointsTable.default()


def settings_from(fields: dict[str, Any], *, base: Settings | None = None) -> Settings:
    """Domain settings from request fields (only those given replace ``base``)."""
    values: dict[str, Any] = {}
    for key, kind in _SETTING_KINDS.items():
        if key in fields:
            values[key] = kind(fields[key]) if fields[key] is not None else None
    if "format" in values and "pairing" not in values:
        # `format: dyp` is paired by `dyp` (and a format other than dyp no longer is)
        if values["format"] is FormatPreset.DYP:
            values["pairing"] = PairingSystem.DYP
        elif base is not None and base.pairing is PairingSystem.DYP:
            values["pairing"] = PairingSystem.NEAREST
    if "points" in fields or base is None:
        pairing = values.get("pairing") or PairingSystem.NEAREST
        table = base.points if base is not None else default_points(pairing)
        values["points"] = half_points(fields.get("points") or {}, base=table)
    if "groups" in fields:
        values["groups"] = groups_setting(fields["groups"])
    if "avoid_same_team" in values and values["avoid_same_team"] is None:
        values["avoid_same_team"] = TeamRule.OFF
    if values.get("third_place", False) is None:
        values["third_place"] = False  # null: the default
    if values.get("pair_checked_in_only", False) is None:
        values["pair_checked_in_only"] = False  # null: the default
    if "entry" in values and values["entry"] is None:
        values["entry"] = Entry.PLAYER  # null: the default
    if base is not None:
        return replace(base, **{k: v for k, v in values.items() if k != "seed" or v is not None})
    if values.get("seed") is None:
        values["seed"] = secrets.randbelow(SEED_LIMIT)
    return Settings(**values)


def create(
    session: Session,
    *,
    name: str,
    players: list[dict[str, Any]],
    fields: dict[str, Any],
    club_id: str | None = None,
    season_id: int | None = None,
    actor: str = audit.ORGANIZER,
) -> Created:
    """A new tournament in registration, with a fresh organizer token (of ``club_id``, if
    given: the club's keys are its organizers too; in its season ``season_id``, if given)."""
    fields = dict(fields)
    player_results = bool(fields.pop("player_results", False))
    tournament = Tournament.create(
        settings_from(fields),
        [players_service.new_player(p) for p in players],
    )
    return insert_new(
        session,
        name=name,
        tournament=tournament,
        player_results=player_results,
        club_id=club_id,
        season_id=season_id,
        actor=actor,
    )


ID_FIRST = string.ascii_letters + string.digits + "_"


def new_tournament_id() -> str:
    """A random URL-safe id of 16 characters (about 96 bits) that never starts with ``-``: a
    command line (``svizzera use ID``) would read such an id as an option."""
    return secrets.choice(ID_FIRST) + secrets.token_urlsafe(12)[1:]


def insert_new(
    session: Session,
    *,
    name: str,
    tournament: Tournament,
    player_results: bool = False,
    club_id: str | None = None,
    season_id: int | None = None,
    actor: str = audit.ORGANIZER,
    **detail: Any,
) -> Created:
    """Store a tournament the domain built (``Tournament.create``, or a TRF's history) with a
    fresh organizer token and board-code key; ``detail`` goes to the audit trail."""
    tid = new_tournament_id()
    token = access.new_token()
    at = storage.now()
    version = 1
    session.execute(
        insert(storage.T).values(
            id=tid,
            name=name,
            token_hash=access.hash_token(token),
            player_results=player_results,
            report_key=board_codes.new_key(),
            version=version,
            created_at=at,
            updated_at=at,
            club_id=club_id,
            season_id=season_id,
            **storage.settings_columns(tournament.settings),
            **storage.derived_columns(tournament),
        )
    )
    storage.save(session, tid, storage.Snapshot.of(Tournament(tournament.settings, ())), tournament)
    if club_id is not None:
        detail["club_id"] = club_id
    if season_id is not None:
        detail["season_id"] = season_id
    audit.record(
        session,
        tid,
        "tournaments-create",
        actor=actor,
        name=name,
        players=len(tournament.players),
        **detail,
    )
    data = events.tournament_data(summaries(session, [tid])[0])
    events.emit(session, tid, [(events.TOURNAMENT_CREATED, data)], version=version)
    return Created(tid, token, at, tournament)


def update(
    session: Session, write: access.Write, *, name: str | None, fields: dict[str, Any]
) -> Tournament:
    """Rename (any time); turn players' results on or off (any time); change settings
    (registration only: the domain refuses otherwise)."""
    detail = {"name": name} if name is not None else {}
    detail.update({k: v for k, v in fields.items()})
    columns: dict[str, Any] = {"name": name} if name is not None else {}
    settings = {k: v for k, v in fields.items() if k != "player_results"}
    if fields.get("player_results") is not None:
        # a tournament made before board codes gets its key when it first takes players' results
        columns["player_results"] = bool(fields["player_results"])
        columns["report_key"] = func.coalesce(storage.T.c.report_key, board_codes.new_key())

    def change(t: Tournament) -> None:
        if settings:
            t.change_settings(settings_from(settings, base=t.settings))

    tournament, _ = commands.run(
        session,
        write,
        "tournaments-update",
        change,
        detail=detail,
        columns=columns or None,
    )
    return tournament


def remove(session: Session, write: access.Write) -> None:
    """Delete the tournament and everything in it (at the version ``If-Match`` names, if any)."""
    access.lock_write(session, write)
    club_id = access.read_header(session, write.tournament_id).club_id
    ratings.tournament_removed(session, club_id, write.tournament_id)
    session.execute(delete(storage.T).where(storage.T.c.id == write.tournament_id))


# -- listing ----------------------------------------------------------------------------------


def encode_cursor(created_at: datetime, tid: str) -> str:
    return base64.urlsafe_b64encode(f"{created_at.isoformat()}|{tid}".encode()).decode()


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        at, tid = base64.urlsafe_b64decode(cursor.encode()).decode().split("|", 1)
        if not re.fullmatch(TOURNAMENT_ID, tid):
            raise ValueError(tid)
        return datetime.fromisoformat(at), tid
    except (ValueError, UnicodeDecodeError) as exc:
        raise ForeignCursor from exc


def page(
    session: Session,
    *,
    limit: int,
    cursor: str | None,
    status: str | None = None,
    name_contains: str | None = None,
    club_id: str | None = None,
    season_id: int | None = None,
) -> tuple[list[str], str | None]:
    """Ids of one page of tournaments, newest first, and the cursor of the next page; only
    those in ``status``, whose name contains ``name_contains`` (any case), of ``club_id`` and
    of ``season_id``, if given."""
    T = storage.T
    query = select(T.c.id, T.c.created_at).order_by(T.c.created_at.desc(), T.c.id.desc())
    if club_id is not None:
        query = query.where(T.c.club_id == club_id)
    if season_id is not None:
        query = query.where(T.c.season_id == season_id)
    if status is not None:
        query = query.where(T.c.status == status)
    if name_contains:
        query = query.where(func.lower(T.c.name).contains(name_contains.lower(), autoescape=True))
    if cursor is not None:
        at, tid = decode_cursor(cursor)
        if session.get_bind().dialect.name == "sqlite":
            at = at.replace(tzinfo=None)
        query = query.where(or_(T.c.created_at < at, (T.c.created_at == at) & (T.c.id < tid)))
    rows = session.execute(query.limit(limit + 1)).all()
    next_cursor = (
        encode_cursor(rows[limit - 1][1], rows[limit - 1][0]) if len(rows) > limit else None
    )
    return [r[0] for r in rows[:limit]], next_cursor


@dataclass(frozen=True, slots=True)
class Summary:
    """A tournament row (every column), its player count, how many of them have not withdrawn
    (``playing``) and the ``seq`` of its latest event."""

    row: Any
    player_count: int
    last_event_id: int
    playing: int


def summaries(session: Session, ids: list[str]) -> list[Summary]:
    """The summaries of ``ids``, in that order."""
    if not ids:
        return []
    T, P = storage.T, storage.P
    counts = (
        select(
            P.c.tournament_id,
            func.count().label("n"),
            func.sum(case((P.c.withdrawn_after.is_(None), 1), else_=0)).label("playing"),
        )
        .where(P.c.tournament_id.in_(ids))
        .group_by(P.c.tournament_id)
        .subquery()
    )
    rows = session.execute(
        select(T, counts.c.n, counts.c.playing)
        .outerjoin(counts, counts.c.tournament_id == T.c.id)
        .where(T.c.id.in_(ids))
    ).all()
    seqs = events.last_seqs(session, ids)
    by_id = {r.id: Summary(r, r.n or 0, seqs.get(r.id, 0), r.playing or 0) for r in rows}
    return [by_id[i] for i in ids if i in by_id]
