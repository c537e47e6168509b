"""A club's player register: entries added, changed, searched and merged, and the players of a
club tournament taken from it (``entrants``, then ``link``).

Every write locks the club row (``clubs.lock``), bumps its version and goes to its audit trail.
Each tournament player of a club tournament points to its entry (``player.club_player_id``); a
merge points the merged entry's players to the kept one, so every past result stays with the
person.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum
from typing import Any

from sqlalchemy import ColumnElement, and_, delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from app.domain.register import (
    RegisterEntry,
    clean_aliases,
    fold_name,
    merge_entries,
    search_key,
)
from app.domain.registration import clean_name
from app.errors import (
    AmbiguousClubPlayer,
    ClubPlayerNotFound,
    ForeignCursor,
    RepeatedClubPlayer,
)
from app.models import ClubPlayerRow
from app.services import clubs, evenings, ratings
from app.services.storage import P, T, now

CP = ClubPlayerRow.__table__  # type: ignore[attr-defined]
NAME_KEY_LENGTH = 320
"""``name_key`` orders the register; a name of 80 characters may fold to more (``ﷺ`` unfolds to
18 letters), and the order needs only its start."""
VALUES = ("rating", "title", "fide_id", "team")
"""What an entry carries for a tournament besides its names."""


@dataclass(frozen=True, slots=True)
class Appearance:
    """One tournament an entry played in, as which player."""

    tournament_id: str
    tournament_name: str
    player_id: int
    name: str


_ENTRY = select(CP.c.id, CP.c.name, CP.c.aliases, CP.c.rating, CP.c.title, CP.c.fide_id, CP.c.team)


def _entry(row: Any) -> RegisterEntry:
    return RegisterEntry(row[0], row[1], tuple(row[2]), row[3], row[4], row[5], row[6])


def _columns(entry: RegisterEntry) -> dict[str, Any]:
    return {
        "name": entry.name,
        "aliases": list(entry.aliases),
        "name_key": fold_name(entry.name)[:NAME_KEY_LENGTH],
        "search_key": search_key(entry.name, entry.aliases),
        "rating": entry.rating,
        "title": entry.title,
        "fide_id": entry.fide_id,
        "team": entry.team,
    }


def get(session: Session, club_id: str, entry_id: int) -> RegisterEntry:
    row = session.execute(_ENTRY.where(CP.c.club_id == club_id, CP.c.id == entry_id)).first()
    if row is None:
        raise ClubPlayerNotFound(
            f"no player {entry_id} in this club's register (never entered, or merged into "
            "another entry): GET …/players?q=<name> finds them"
        )
    return _entry(row)


def _insert(session: Session, club_id: str, entry: RegisterEntry) -> RegisterEntry:
    entry_id: int = session.execute(
        insert(CP).values(club_id=club_id, created_at=now(), **_columns(entry)).returning(CP.c.id)
    ).scalar_one()
    return replace(entry, id=entry_id)


def add(
    session: Session, write: clubs.ClubWrite, *, name: str, aliases: Sequence[str], **values: Any
) -> RegisterEntry:
    """A new entry of the register (namesakes are allowed: tell them apart by a FIDE id, a
    team, an alias)."""
    version = clubs.lock(session, write)
    entry = RegisterEntry(0, name, clean_aliases(name, aliases), **_values(values))
    entry = _insert(session, write.club_id, entry)
    clubs.changed(session, write, version, "club-players-create", player_id=entry.id, name=name)
    return entry


def _values(values: dict[str, Any]) -> dict[str, Any]:
    """The entry's values among ``values`` (a title as its text)."""
    return {k: v.value if isinstance(v, Enum) else v for k, v in values.items() if k in VALUES}


def change(
    session: Session, write: clubs.ClubWrite, entry_id: int, changes: dict[str, Any]
) -> RegisterEntry:
    """Change the fields given (``None`` clears a value); the name and aliases are searched
    under their new forms at once. Tournaments already made keep the names they were made
    with. A new rating is where the entry's club rating starts: the club is rated again from
    the first tournament the entry played."""
    version = clubs.lock(session, write)
    entry = get(session, write.club_id, entry_id)
    name = changes.get("name") or entry.name
    aliases = changes.get("aliases", entry.aliases)
    rating = entry.rating
    entry = replace(entry, name=name, aliases=clean_aliases(name, aliases), **_values(changes))
    session.execute(update(CP).where(CP.c.id == entry_id).values(**_columns(entry)))
    if entry.rating != rating:  # where its club rating starts
        ratings.register_rating_changed(session, write.club_id, entry_id)
    detail = {k: v for k, v in changes.items()}
    clubs.changed(session, write, version, "club-players-update", player_id=entry_id, **detail)
    return entry


# -- search ------------------------------------------------------------------------------------


def _encode(name_key: str, entry_id: int) -> str:
    return base64.urlsafe_b64encode(f"cp:{entry_id}:{name_key}".encode()).decode()


def _decode(cursor: str) -> tuple[str, int]:
    try:
        kind, entry_id, name_key = base64.urlsafe_b64decode(cursor.encode()).decode().split(":", 2)
        if kind == "cp" and entry_id.isdigit():
            return name_key, int(entry_id)
    except (ValueError, UnicodeDecodeError):
        pass
    raise ForeignCursor


def _contains(session: Session, folded: str) -> ColumnElement[bool]:
    """``search_key`` contains ``folded``, as a plain substring: both sides are folded already,
    so the case-sensitive position functions do, without `LIKE`'s wildcards to escape and (on
    SQLite) its case folding, which made a search of 10,000 entries twice as slow."""
    position = func.instr if session.get_bind().dialect.name == "sqlite" else func.strpos
    return position(CP.c.search_key, folded) > 0


def search(
    session: Session, club_id: str, *, q: str | None, limit: int, cursor: str | None
) -> tuple[list[RegisterEntry], str | None]:
    """One page of the register in name order (folded), and the next page's cursor; with ``q``,
    only the entries one of whose names (name or alias) contains ``q``, accents, case and
    punctuation aside (``app.domain.register.fold_name``)."""
    query = (
        select(*_ENTRY.selected_columns, CP.c.name_key)
        .where(CP.c.club_id == club_id)
        .order_by(CP.c.name_key, CP.c.id)
    )
    folded = fold_name(q) if q else ""
    if folded:
        query = query.where(_contains(session, folded))
    if cursor is not None:
        after_key, after_id = _decode(cursor)
        query = query.where(
            or_(CP.c.name_key > after_key, and_(CP.c.name_key == after_key, CP.c.id > after_id))
        )
    rows = session.execute(query.limit(limit + 1)).all()
    next_cursor = _encode(rows[limit - 1][7], rows[limit - 1][0]) if len(rows) > limit else None
    return [_entry(r) for r in rows[:limit]], next_cursor


def appearances(session: Session, entry_id: int) -> list[Appearance]:
    """The tournaments the entry played, oldest first."""
    rows = session.execute(
        select(T.c.id, T.c.name, P.c.number, P.c.name)
        .join(T, T.c.id == P.c.tournament_id)
        .where(P.c.club_player_id == entry_id)
        .order_by(T.c.created_at, T.c.id)
    )
    return [Appearance(*r) for r in rows]


# -- merge -------------------------------------------------------------------------------------


def merge(session: Session, write: clubs.ClubWrite, kept_id: int, merged_id: int) -> RegisterEntry:
    """``merged_id`` becomes part of ``kept_id`` (``app.domain.register.merge_entries``): its
    tournament players point to the kept entry, its names become aliases, and it is gone."""
    get(session, write.club_id, merged_id)  # this club's: only then lock its tournaments
    _lock_tournaments_of(session, merged_id)
    version = clubs.lock(session, write)
    _lock_tournaments_of(session, merged_id, wait=False)  # one made meanwhile
    kept = get(session, write.club_id, kept_id)
    merged = get(session, write.club_id, merged_id)
    played = select(P.c.tournament_id).where(P.c.club_player_id == kept_id)
    shared = session.execute(
        select(P.c.tournament_id)
        .where(P.c.club_player_id == merged_id, P.c.tournament_id.in_(played))
        .distinct()
    ).scalars()
    entry = merge_entries(kept, merged, shared_tournaments=list(shared))
    seasons = evenings.seasons_played_by(session, merged_id)  # the tables the merge changes
    rated_from = ratings.first_played(session, write.club_id, [kept_id, merged_id])
    session.execute(update(P).where(P.c.club_player_id == merged_id).values(club_player_id=kept_id))
    session.execute(update(CP).where(CP.c.id == kept_id).values(**_columns(entry)))
    session.execute(delete(CP).where(CP.c.id == merged_id))
    ratings.entries_merged(session, write.club_id, rated_from)  # as if always one
    evenings.entries_merged(session, write.club_id, seasons, kept_id)
    clubs.changed(
        session,
        write,
        version,
        "club-players-merge",
        player_id=kept_id,
        merged_id=merged_id,
        merged_name=merged.name,
    )
    return entry


def _lock_tournaments_of(session: Session, entry_id: int, *, wait: bool = True) -> None:
    """Lock the tournaments the entry plays in (in id order), before the club: the order of
    every write to a club's tournament that needs the club too (its tournament, then the club:
    the result that finishes it and rates it, a change to a finished season evening), as a
    season's deletion takes them. A merge that took the club first and then waited for a
    player row such a write had changed would deadlock with it
    (``tests/api/test_rating_locks.py``). Again under the club's lock, ``wait=False``: a
    tournament made with the entry in between is locked without waiting (one held by a write
    that may wait for the club: 503 ``busy``, try again) rather than risk a deadlock. SQLite:
    the club's lock is the database's one write lock."""
    if session.get_bind().dialect.name == "sqlite":
        return
    session.execute(
        select(T.c.id)
        .where(T.c.id.in_(select(P.c.tournament_id).where(P.c.club_player_id == entry_id)))
        .order_by(T.c.id)
        .with_for_update(nowait=not wait)
    )


# -- the players of a club tournament ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player of a new club tournament: what the domain gets, and its register entry
    (``entry_id`` None: a new name, entered in the register once the tournament is made)."""

    player: dict[str, Any]
    entry_id: int | None


def _by_name(session: Session, club_id: str, name: str) -> list[int]:
    """The entries one of whose names folds to ``name``'s folded form."""
    folded = fold_name(name)
    rows = session.execute(
        select(CP.c.id, CP.c.search_key).where(CP.c.club_id == club_id, _contains(session, folded))
    )
    return [r[0] for r in rows if folded in r[1].split("\n")]


def entrants(session: Session, club_id: str, inputs: list[dict[str, Any]]) -> list[Entrant]:
    """The players of a new club tournament: ``{"club_player_id": n}`` takes an entry's name
    and values; a name is the entry that has it as its name or an alias (folded) when exactly
    one does (409 ``ambiguous_club_player`` when several do), else a new entry. One entry
    twice is refused (422 ``repeated_club_player``)."""
    found: list[Entrant] = []
    for given in inputs:
        if given.get("club_player_id") is not None:
            entry = get(session, club_id, given["club_player_id"])
            player = {"name": entry.name, **{k: getattr(entry, k) for k in VALUES}}
            found.append(Entrant(player, entry.id))
            continue
        ids = _by_name(session, club_id, given["name"])
        if len(ids) > 1:
            raise AmbiguousClubPlayer(
                f"{given['name']!r} is a name of register entries {', '.join(map(str, ids))}: "
                'give the one meant as {"club_player_id": …}'
            )
        found.append(Entrant(given, ids[0] if ids else None))
    ids = [e.entry_id for e in found if e.entry_id is not None]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    if twice:
        raise RepeatedClubPlayer(
            f"register entry {', '.join(map(str, twice))} is listed twice (by id, name or "
            "alias): a person plays a tournament once"
        )
    return found


def link(session: Session, club_id: str, tournament_id: str, found: list[Entrant]) -> None:
    """Point the new tournament's players (ids 1… in list order) to their entries, entering
    the new names in the register first."""
    for number, entrant in enumerate(found, start=1):
        link_player(session, club_id, tournament_id, number, entrant)


def link_player(
    session: Session, club_id: str, tournament_id: str, number: int, entrant: Entrant
) -> None:
    """Point player ``number`` of the tournament to its entry (a new name enters the register)."""
    entry_id = entrant.entry_id
    if entry_id is None:
        p = entrant.player
        entry = RegisterEntry(0, clean_name(p["name"]), (), **_values(p))
        entry_id = _insert(session, club_id, entry).id
    session.execute(
        update(P)
        .where(P.c.tournament_id == tournament_id, P.c.number == number)
        .values(club_player_id=entry_id)
    )


def plays_in(session: Session, entry_id: int, tournament_id: str) -> bool:
    found = session.execute(
        select(P.c.number).where(P.c.tournament_id == tournament_id, P.c.club_player_id == entry_id)
    ).first()
    return found is not None
