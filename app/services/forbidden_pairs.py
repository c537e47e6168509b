"""Forbidden pairs: list two players as not to be paired, take a pair off the list."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.domain.forbidden import ForbiddenPair, ForbiddenPairId, PairKind
from app.domain.types import PlayerId
from app.services import access, commands, events


def add(
    session: Session, write: access.Write, first: int, second: int, kind: PairKind
) -> ForbiddenPair:
    """List ``first`` and ``second`` as a forbidden pair of ``kind``; the rounds not paired yet
    honour it."""
    _, pair = commands.run(
        session,
        write,
        "forbidden-pairs-create",
        lambda t: t.forbid_pair(PlayerId(first), PlayerId(second), kind),
        detail=lambda p: {
            "forbidden_pair_id": p.id,
            "players": [first, second],
            "kind": kind.value,
        },
        watch=lambda _: (
            lambda _t, p: [(events.FORBIDDEN_PAIR_ADDED, events.forbidden_pair_data(p))]
        ),
    )
    return pair


def remove(session: Session, write: access.Write, pair_id: int) -> ForbiddenPair:
    """Take the pair off the list; rounds already paired stay as they are."""
    _, pair = commands.run(
        session,
        write,
        "forbidden-pairs-delete",
        lambda t: t.allow_pair(ForbiddenPairId(pair_id)),
        detail=lambda p: {"forbidden_pair_id": pair_id, "players": list(p.players)},
        watch=lambda _: (
            lambda _t, p: [(events.FORBIDDEN_PAIR_REMOVED, events.forbidden_pair_data(p))]
        ),
    )
    return pair
