"""Who may write (the organizer's token; scorekeepers', which may only record results), what a
write expects, and the tournament row lock.

A write checks its token without any lock; a command then computes on what it read and locks
the row only to save (``app.services.commands``), so no request waits on a lock it has no
right to, and no computation holds one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session

from app.db import is_busy
from app.errors import Forbidden, PreconditionFailed, TournamentNotFound, Unauthorized
from app.models import AccessTokenRow, ClubKeyRow
from app.services.storage import T

K = AccessTokenRow.__table__  # type: ignore[attr-defined]
CK = ClubKeyRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class Header:
    """The tournament row's identity and version (the ETag), without its game state."""

    id: str
    name: str
    version: int
    created_at: datetime
    token_hash: str
    club_id: str | None = None


ORGANIZER = "organizer"
SCOREKEEPER = "scorekeeper"
CLUB = "club"
"""A club key's writes are named ``club:<key id>``: it organizes every tournament of its club."""


@dataclass(frozen=True, slots=True)
class Write:
    """A write to one tournament that the token check let through.

    ``expect``: the version the client named in ``If-Match``; the write is refused (412) unless
    the tournament is still at that version when it is saved. ``saved`` is told the version the
    write made (the API sends it as the ``ETag``). ``actor``: who writes, as the audit trail
    names them (``organizer``, ``club:<key id>`` or ``scorekeeper:<id>``). ``token`` and
    ``seen``: the token that was checked and the version it was checked at, to check it again
    under the lock if the tournament changed since (``check_still_allowed``).
    """

    tournament_id: str
    expect: int | None = None
    saved: Callable[[int], None] | None = None
    actor: str = ORGANIZER
    token: str | None = field(default=None, repr=False)
    seen: int | None = None


def check_expected(write: Write, version: int) -> None:
    """412 when the client named another version in ``If-Match`` than the tournament's."""
    if write.expect is not None and write.expect != version:
        raise PreconditionFailed(
            f'the tournament changed: it is at ETag "{version}", not "{write.expect}"; read it '
            "again, check the change, then send the new ETag in `If-Match`"
        )


def new_token() -> str:
    """256 random bits, URL-safe; only its hash is stored."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def club_key_id(session: Session, club_id: str, digest: str) -> int | None:
    """The id of the live key of ``club_id`` whose hash is ``digest`` (None: no such key)."""
    found: int | None = session.execute(
        select(CK.c.id).where(
            CK.c.club_id == club_id, CK.c.token_hash == digest, CK.c.revoked_at.is_(None)
        )
    ).scalar_one_or_none()
    return found


def _organizer_actor(session: Session, header: Header, digest: str) -> str | None:
    """``organizer`` for the tournament's own token, ``club:<id>`` for a live key of its club,
    None for anything else (hashes compared in constant time, the key by an indexed lookup)."""
    if hmac.compare_digest(digest, header.token_hash):
        return ORGANIZER
    if header.club_id is not None:
        key = club_key_id(session, header.club_id, digest)
        if key is not None:
            return f"{CLUB}:{key}"
    return None


def check_token(session: Session, header: Header, token: str | None) -> str:
    """401 without a token, 403 with a wrong one; the organizer's token or, for a tournament of
    a club, a live key of that club. Returns who writes (``organizer`` or ``club:<key id>``)."""
    if not token:
        raise Unauthorized(
            "only the organizer may do this: send `Authorization: Bearer <organizer_token>` "
            "(the token given when the tournament was created, or a key of its club)"
        )
    actor = _organizer_actor(session, header, hash_token(token))
    if actor is None:
        raise Forbidden(
            "the organizer token does not match this tournament: send the one given when it "
            "was created, or the newest if it was rotated, or a live key of the tournament's "
            "club (a scorekeeper token may only record and clear results)"
        )
    return actor


def check_result_token(session: Session, header: Header, token: str | None) -> str:
    """The organizer's token, a key of the tournament's club or a live scorekeeper token of this
    tournament: who is writing (``organizer``, ``club:<id>`` or ``scorekeeper:<id>``, as the
    audit trail names them)."""
    if not token:
        raise Unauthorized(
            "recording a result needs `Authorization: Bearer <organizer or scorekeeper token>`"
        )
    digest = hash_token(token)
    actor = _organizer_actor(session, header, digest)
    if actor is not None:
        return actor
    found = session.execute(
        select(K.c.id).where(
            K.c.tournament_id == header.id, K.c.token_hash == digest, K.c.revoked_at.is_(None)
        )
    ).scalar_one_or_none()
    if found is None:
        raise Forbidden(
            "neither the organizer token nor a live scorekeeper token of this tournament: ask "
            "the organizer for a scorekeeper token (a revoked one stops working)"
        )
    return f"{SCOREKEEPER}:{found}"


_HEADER = select(T.c.id, T.c.name, T.c.version, T.c.created_at, T.c.token_hash, T.c.club_id)


def read_header(session: Session, tournament_id: str) -> Header:
    row = session.execute(_HEADER.where(T.c.id == tournament_id)).first()
    if row is None:
        raise TournamentNotFound(tournament_id)
    return Header(*row)


def lock_header(session: Session, tournament_id: str) -> Header:
    """Lock the tournament row until the transaction ends, so saves to one tournament run one by
    one; the wait is bounded by the lock timeout (``app.db.make_engine``).

    PostgreSQL: ``SELECT … FOR UPDATE``. SQLite has no row locks: a no-op ``UPDATE`` takes the
    database write lock (reads before it run outside any transaction, so it never has to upgrade
    a read snapshot), and other writers wait for it (busy timeout). Take it just before saving.
    """
    if session.get_bind().dialect.name == "sqlite":
        session.execute(update(T).where(T.c.id == tournament_id).values(version=T.c.version))
        return read_header(session, tournament_id)
    row = session.execute(_HEADER.where(T.c.id == tournament_id).with_for_update()).first()
    if row is None:
        raise TournamentNotFound(tournament_id)
    return Header(*row)


QUEUE_WAITS = 6
"""Lock waits (each at most the lock timeout) a write may make while writes ahead of it get
through (``lock_header_in_queue``)."""


def lock_header_in_queue(session: Session, tournament_id: str, *, seen: int) -> Header:
    """``lock_header`` for a write that has written nothing yet in its transaction, at the
    tournament's ``seen`` version: a wait that runs out while other writes to the tournament
    were saved (the version moved) is a queue moving on a busy machine, not a stuck lock, so
    the write waits again, up to ``QUEUE_WAITS`` times. Only a wait in which no write got
    through ends as ``busy``.

    The failed wait ends the transaction (PostgreSQL aborts it; SQLite must begin a new one to
    take its lock on the newest state), which loses only reads.
    """
    for _ in range(QUEUE_WAITS - 1):
        try:
            return lock_header(session, tournament_id)
        except OperationalError as error:
            if not is_busy(error):
                raise
            session.rollback()
            now = read_header(session, tournament_id).version
            if now == seen:
                raise
            seen = now
    return lock_header(session, tournament_id)


def check_still_allowed(session: Session, write: Write, locked: Header) -> None:
    """Under the lock: if anything was saved since the token was checked (a rotation of the
    organizer token, a revoked scorekeeper token among it), check the token again, so a write
    never lands with a token that stopped working before it was saved. A club key is checked
    again always: revoking it changes the club, not the tournament's version."""
    if write.token is None:
        return
    if write.seen == locked.version and not write.actor.startswith(CLUB):
        return
    if write.actor.startswith(SCOREKEEPER):
        check_result_token(session, locked, write.token)
    else:
        check_token(session, locked, write.token)


def lock_write(session: Session, write: Write) -> int:
    """For a short write that is not a domain command (tokens, webhooks): lock the row now and
    check the token and ``If-Match`` again; returns the version the write starts from."""
    locked = lock_header(session, write.tournament_id)
    check_still_allowed(session, write, locked)
    check_expected(write, locked.version)
    return locked.version
