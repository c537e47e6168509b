"""Scorekeeper tokens (created, listed, revoked by the organizer) and the organizer token's
rotation. Secrets are shown once and stored as SHA-256 hashes; every action is audited and bumps
the tournament's version (so the audit trail's ETag moves with it)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.orm import Session

from app.errors import TokenNotFound, TooManyTokens
from app.services import access, audit
from app.services.access import K
from app.services.storage import T, now
from app.services.views import aware

MAX_TOKENS = 100
"""Scorekeeper tokens per tournament, revoked ones included: the list stays one short answer."""


@dataclass(frozen=True, slots=True)
class Token:
    id: int
    kind: str
    label: str | None
    created_at: datetime
    revoked_at: datetime | None


_TOKEN = select(K.c.id, K.c.kind, K.c.label, K.c.created_at, K.c.revoked_at)


def _token(row: Any) -> Token:
    return Token(row[0], row[1], row[2], aware(row[3]), aware(row[4]) if row[4] else None)


def _changed(session: Session, write: access.Write, version: int) -> None:
    """The tournament moves to the next version (the caller holds its lock, at ``version``)."""
    session.execute(
        update(T).where(T.c.id == write.tournament_id).values(version=version + 1, updated_at=now())
    )
    if write.saved is not None:
        write.saved(version + 1)


def create(session: Session, write: access.Write, *, label: str | None) -> tuple[Token, str]:
    """A new scorekeeper token and its secret (shown this once)."""
    tournament_id = write.tournament_id
    version = access.lock_write(session, write)  # so two creations cannot pass the count
    count = session.execute(
        select(func.count()).select_from(K).where(K.c.tournament_id == tournament_id)
    ).scalar_one()
    if count >= MAX_TOKENS:
        raise TooManyTokens(
            f"a tournament has at most {MAX_TOKENS} scorekeeper tokens: revoke one that is "
            "no longer used (DELETE …/tokens/{id}) first"
        )
    secret = access.new_token()
    token_id: int = session.execute(
        insert(K)
        .values(
            tournament_id=tournament_id,
            kind=access.SCOREKEEPER,
            label=label,
            token_hash=access.hash_token(secret),
            created_at=now(),
        )
        .returning(K.c.id)
    ).scalar_one()
    _changed(session, write, version)
    audit.record(session, tournament_id, "tokens-create", token_id=token_id, label=label)
    return get(session, tournament_id, token_id), secret


def listed(session: Session, tournament_id: str) -> list[Token]:
    rows = session.execute(_TOKEN.where(K.c.tournament_id == tournament_id).order_by(K.c.id))
    return [_token(r) for r in rows]


def get(session: Session, tournament_id: str, token_id: int) -> Token:
    row = session.execute(
        _TOKEN.where(K.c.tournament_id == tournament_id, K.c.id == token_id)
    ).first()
    if row is None:
        raise TokenNotFound(
            f"no scorekeeper token {token_id} in this tournament (never made, or revoked): "
            "GET …/tokens lists the live ones"
        )
    return _token(row)


def revoke(session: Session, write: access.Write, token_id: int) -> None:
    """The token stops working at once; revoking it again changes nothing."""
    tournament_id = write.tournament_id
    version = access.lock_write(session, write)
    if get(session, tournament_id, token_id).revoked_at is not None:
        return
    session.execute(update(K).where(K.c.id == token_id).values(revoked_at=now()))
    _changed(session, write, version)
    audit.record(session, tournament_id, "tokens-revoke", token_id=token_id)


def rotate_organizer(session: Session, write: access.Write) -> str:
    """A new organizer token (shown this once); the old one stops working at once."""
    tournament_id = write.tournament_id
    version = access.lock_write(session, write)
    secret = access.new_token()
    session.execute(
        update(T).where(T.c.id == tournament_id).values(token_hash=access.hash_token(secret))
    )
    _changed(session, write, version)
    audit.record(session, tournament_id, "organizer-token-rotate")
    return secret
