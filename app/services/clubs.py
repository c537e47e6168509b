"""Clubs: create one, check its keys, and its keys' life (created, listed, rotated, revoked).

A club key is a secret like a tournament's organizer token (``access.new_token``, stored as its
SHA-256 hash, shown once): it runs the club (keys, register) and acts as organizer on every
tournament of the club (``access.check_token``). Every club-level write bumps the club's
version and is audited in the club's trail (``club_audit``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.orm import Session

from app.domain.ratings.club import RatingSystem, System
from app.errors import (
    ClubKeyNotFound,
    ClubNotFound,
    Forbidden,
    LastClubKey,
    TooManyClubKeys,
    Unauthorized,
)
from app.models import ClubRow
from app.services import access, club_audit, ratings
from app.services.access import CK
from app.services.storage import now
from app.services.tournaments import new_tournament_id
from app.services.views import aware

C = ClubRow.__table__  # type: ignore[attr-defined]

MAX_KEYS = 100
"""Keys per club, revoked ones included: the list stays one short answer."""


@dataclass(frozen=True, slots=True)
class Club:
    id: str
    name: str
    version: int
    created_at: datetime
    rating: System


@dataclass(frozen=True, slots=True)
class ClubWrite:
    """A request a club key let through: the club, and who it is (``club:<key id>``)."""

    club_id: str
    key_id: int
    token: str

    @property
    def actor(self) -> str:
        return f"{access.CLUB}:{self.key_id}"


@dataclass(frozen=True, slots=True)
class Key:
    id: int
    label: str | None
    created_at: datetime
    revoked_at: datetime | None


_CLUB = select(C.c.id, C.c.name, C.c.version, C.c.created_at, C.c.rating_system, C.c.elo_k)
_KEY = select(CK.c.id, CK.c.label, CK.c.created_at, CK.c.revoked_at)


def _club(row: Any) -> Club:
    return Club(row[0], row[1], row[2], aware(row[3]), System(RatingSystem(row[4]), row[5]))


def _key(row: Any) -> Key:
    return Key(row[0], row[1], aware(row[2]), aware(row[3]) if row[3] else None)


def read(session: Session, club_id: str) -> Club:
    row = session.execute(_CLUB.where(C.c.id == club_id)).first()
    if row is None:
        raise ClubNotFound(club_id)
    return _club(row)


def check_key(session: Session, club_id: str, token: str | None) -> ClubWrite:
    """404 for no such club, 401 without a token, 403 unless it is a live key of this club (a
    tournament's token, or another club's key, is not)."""
    read(session, club_id)
    if not token:
        raise Unauthorized(
            "only the club may do this: send `Authorization: Bearer <club key>` (the key given "
            "when the club was created, or one made with POST …/keys)"
        )
    key = access.club_key_id(session, club_id, access.hash_token(token))
    if key is None:
        raise Forbidden(
            "not a live key of this club: send a club key (a tournament's token or another "
            "club's key does not open a club; a revoked or rotated key stops working)"
        )
    return ClubWrite(club_id, key, token)


def key_is_live(session: Session, write: ClubWrite) -> bool:
    """Whether the key that let ``write`` through still opens the club (not revoked or
    rotated since): an open club stream asks it again once a heartbeat."""
    return access.club_key_id(session, write.club_id, access.hash_token(write.token)) is not None


def lock(session: Session, write: ClubWrite) -> int:
    """Lock the club row until the transaction ends (club writes run one by one), check the key
    again under it (it may have been revoked meanwhile); returns the club's version.

    PostgreSQL: ``SELECT … FOR UPDATE``; SQLite: a no-op ``UPDATE`` takes the write lock."""
    if session.get_bind().dialect.name == "sqlite":
        session.execute(update(C).where(C.c.id == write.club_id).values(version=C.c.version))
        version = session.execute(select(C.c.version).where(C.c.id == write.club_id)).scalar()
    else:
        version = session.execute(
            select(C.c.version).where(C.c.id == write.club_id).with_for_update()
        ).scalar()
    if version is None:
        raise ClubNotFound(write.club_id)
    found = access.club_key_id(session, write.club_id, access.hash_token(write.token))
    if found != write.key_id:
        raise Forbidden("this club key was revoked or rotated while the request waited")
    return int(version)


def changed(session: Session, write: ClubWrite, version: int, action: str, **detail: Any) -> None:
    """The club moves to its next version, and the write goes to its audit trail."""
    session.execute(
        update(C).where(C.c.id == write.club_id).values(version=version + 1, updated_at=now())
    )
    club_audit.record(session, write.club_id, action, actor=write.actor, **detail)


def create(
    session: Session, *, name: str, key_label: str | None, rating: System = System()
) -> tuple[Club, Key, str]:
    """A new club and its first key, whose secret is in this answer only."""
    club_id = new_tournament_id()
    at = now()
    session.execute(
        insert(C).values(
            id=club_id,
            name=name,
            version=1,
            created_at=at,
            updated_at=at,
            rating_system=rating.kind.value,
            elo_k=rating.k,
        )
    )
    key, secret = _insert_key(session, club_id, key_label)
    club_audit.record(
        session,
        club_id,
        "clubs-create",
        actor=f"{access.CLUB}:{key.id}",
        name=name,
        rating_system=rating.kind.value,
        elo_k=rating.k,
    )
    return read(session, club_id), key, secret


def update_club(
    session: Session,
    write: ClubWrite,
    *,
    name: str | None,
    rating_system: RatingSystem | None,
    elo_k: int | None,
) -> Club:
    """Rename the club and/or change its rating settings (the fields given); new rating
    settings rate the club again from its first rated tournament (``ratings.change_system``)."""
    version = lock(session, write)
    club = read(session, write.club_id)
    if name is not None:
        session.execute(update(C).where(C.c.id == write.club_id).values(name=name))
    system = System(rating_system or club.rating.kind, elo_k or club.rating.k)
    ratings.change_system(session, write.club_id, system)
    detail = {"name": name, "rating_system": rating_system, "elo_k": elo_k}
    changed(
        session,
        write,
        version,
        "clubs-update",
        **{k: v for k, v in detail.items() if v is not None},
    )
    return read(session, write.club_id)


def _insert_key(session: Session, club_id: str, label: str | None) -> tuple[Key, str]:
    secret = access.new_token()
    key_id: int = session.execute(
        insert(CK)
        .values(
            club_id=club_id, label=label, token_hash=access.hash_token(secret), created_at=now()
        )
        .returning(CK.c.id)
    ).scalar_one()
    return get_key(session, club_id, key_id), secret


def create_key(session: Session, write: ClubWrite, *, label: str | None) -> tuple[Key, str]:
    """A further key of the club (each with its label, all equal in power)."""
    version = lock(session, write)
    count = session.execute(
        select(func.count()).select_from(CK).where(CK.c.club_id == write.club_id)
    ).scalar_one()
    if count >= MAX_KEYS:
        raise TooManyClubKeys(
            f"a club has at most {MAX_KEYS} keys: revoke one that is no longer used "
            "(DELETE …/keys/{id}) first"
        )
    key, secret = _insert_key(session, write.club_id, label)
    changed(session, write, version, "club-keys-create", key_id=key.id, label=label)
    return key, secret


def keys(session: Session, club_id: str) -> list[Key]:
    rows = session.execute(_KEY.where(CK.c.club_id == club_id).order_by(CK.c.id))
    return [_key(r) for r in rows]


def get_key(session: Session, club_id: str, key_id: int) -> Key:
    row = session.execute(_KEY.where(CK.c.club_id == club_id, CK.c.id == key_id)).first()
    if row is None:
        raise ClubKeyNotFound(f"no key {key_id} in this club: GET …/keys lists them")
    return _key(row)


def _live_keys(session: Session, club_id: str) -> int:
    return int(
        session.execute(
            select(func.count())
            .select_from(CK)
            .where(CK.c.club_id == club_id, CK.c.revoked_at.is_(None))
        ).scalar_one()
    )


def revoke_key(session: Session, write: ClubWrite, key_id: int) -> None:
    """The key stops working at once (its own request included); revoking it again changes
    nothing. The last live key cannot be revoked (409 ``last_club_key``): rotate it instead."""
    version = lock(session, write)
    if get_key(session, write.club_id, key_id).revoked_at is not None:
        return
    if _live_keys(session, write.club_id) <= 1:
        raise LastClubKey(
            "this is the club's only live key: without it nobody could run the club; rotate it "
            "(POST …/keys/{id}/rotate) or make another key first"
        )
    session.execute(update(CK).where(CK.c.id == key_id).values(revoked_at=now()))
    changed(session, write, version, "club-keys-revoke", key_id=key_id)


def rotate_key(session: Session, write: ClubWrite, key_id: int) -> tuple[Key, str]:
    """A new secret for the key (same id and label, shown this once); the old one stops at
    once. A revoked key is not brought back (404 ``club_key_not_found``: make a new one)."""
    version = lock(session, write)
    if get_key(session, write.club_id, key_id).revoked_at is not None:
        raise ClubKeyNotFound(
            f"key {key_id} is revoked: make a new key (POST …/keys) instead of rotating it"
        )
    secret = access.new_token()
    session.execute(
        update(CK).where(CK.c.id == key_id).values(token_hash=access.hash_token(secret))
    )
    changed(session, write, version, "club-keys-rotate", key_id=key_id)
    return get_key(session, write.club_id, key_id), secret
