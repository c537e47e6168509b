"""The tokens (the organizer's; scorekeepers', which may only record results) and the
tournament row lock that every write takes first."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from app.errors import Forbidden, TournamentNotFound, Unauthorized
from app.models import AccessTokenRow
from app.services.storage import T

K = AccessTokenRow.__table__  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class Header:
    """The tournament row's identity and version (the ETag), without its game state."""

    id: str
    name: str
    version: int
    created_at: datetime
    token_hash: str


@dataclass(frozen=True, slots=True)
class Caller:
    """A checked writer of a tournament: its id, and who writes (as the audit trail says)."""

    id: str
    actor: str


def new_token() -> str:
    """256 random bits, URL-safe; only its hash is stored."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


ORGANIZER = "organizer"
SCOREKEEPER = "scorekeeper"


def check_token(header: Header, token: str | None) -> None:
    """401 without a token, 403 with a wrong one; compared in constant time."""
    if not token:
        raise Unauthorized(
            "this is the organizer's: send `Authorization: Bearer <organizer_token>` "
            "(the token given when the tournament was created)"
        )
    if not hmac.compare_digest(hash_token(token), header.token_hash):
        raise Forbidden(
            "the organizer token does not match this tournament "
            "(a scorekeeper token may only record and clear results)"
        )


def check_result_token(session: Session, header: Header, token: str | None) -> str:
    """The organizer's token or a live scorekeeper token of this tournament: who is writing
    (``organizer`` or ``scorekeeper:<id>``, as the audit trail names them)."""
    if not token:
        raise Unauthorized(
            "recording a result needs `Authorization: Bearer <organizer or scorekeeper token>`"
        )
    digest = hash_token(token)
    if hmac.compare_digest(digest, header.token_hash):
        return ORGANIZER
    found = session.execute(
        select(K.c.id).where(
            K.c.tournament_id == header.id, K.c.token_hash == digest, K.c.revoked_at.is_(None)
        )
    ).scalar_one_or_none()
    if found is None:
        raise Forbidden(
            "neither the organizer token nor a live scorekeeper token of this tournament"
        )
    return f"{SCOREKEEPER}:{found}"


_HEADER = select(T.c.id, T.c.name, T.c.version, T.c.created_at, T.c.token_hash)


def read_header(session: Session, tournament_id: str) -> Header:
    row = session.execute(_HEADER.where(T.c.id == tournament_id)).first()
    if row is None:
        raise TournamentNotFound(f"no tournament {tournament_id!r}")
    return Header(*row)


def lock_header(session: Session, tournament_id: str) -> Header:
    """Lock the tournament row for this transaction, so writes to one tournament run one by one.

    PostgreSQL: ``SELECT … FOR UPDATE``. SQLite has no row locks: a no-op ``UPDATE`` as the
    transaction's first statement takes the database write lock (the same as ``BEGIN
    IMMEDIATE``), and later writers wait for it (busy timeout).
    """
    if session.get_bind().dialect.name == "sqlite":
        session.execute(update(T).where(T.c.id == tournament_id).values(version=T.c.version))
        return read_header(session, tournament_id)
    row = session.execute(_HEADER.where(T.c.id == tournament_id).with_for_update()).first()
    if row is None:
        raise TournamentNotFound(f"no tournament {tournament_id!r}")
    return Header(*row)
