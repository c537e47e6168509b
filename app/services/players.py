"""Players: add (registration or late entry), rename, withdraw, check in for round 1, delete in
registration."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy.orm import Session

from app.domain.errors import UnknownPlayer
from app.domain.registration import NewPlayer
from app.domain.tournament import Tournament
from app.domain.types import ByeKind, FideTitle, Player, PlayerId, RoundNumber
from app.services import access, commands, events


def new_player(given: Mapping[str, Any]) -> NewPlayer:
    """A player as a request body lists them (creation, late entry, a club's register)."""
    return NewPlayer(
        given["name"],
        given.get("rating"),
        FideTitle(given["title"]) if given.get("title") else None,
        given.get("fide_id"),
        given.get("team"),
        tuple(given.get("members") or ()),
    )


def add(session: Session, write: access.Write, new: NewPlayer) -> Player:
    detail: dict[str, object] = {"name": new.name, "rating": new.rating}
    if new.team is not None:
        detail["team"] = new.team
    if new.title is not None:
        detail["title"] = new.title.value
    if new.fide_id is not None:
        detail["fide_id"] = new.fide_id
    if new.members:
        detail["members"] = list(new.members)
    _, player = commands.run(
        session,
        write,
        "players-create",
        lambda t: t.add_player(new),
        detail=detail,
        watch=lambda _: lambda _t, p: [(events.PLAYER_ADDED, events.player_data(p))],
    )
    return player


_KEEP = object()


def update(
    session: Session,
    write: access.Write,
    player_id: int,
    *,
    name: str | None,
    withdraw: bool,
    team: str | object | None = _KEEP,
    checked_in: bool | None = None,
    members: Sequence[str] | None = None,
) -> Player:
    """Rename, put in a team (``None``: in none; left out: as it is), name a team entry's two
    players anew, check in or out and/or withdraw; all checked by the domain before anything
    changes."""
    pid = PlayerId(player_id)

    def change(t: Tournament) -> Player:
        if pid not in t.players:
            raise UnknownPlayer(
                f"no player {player_id} in this tournament: use an id from its player list"
            )
        if name is not None:
            t.rename_player(pid, name)
        if team is not _KEEP:
            t.set_team(pid, team if isinstance(team, str) else None)
        if members is not None:
            t.set_members(pid, members)
        if checked_in is not None:
            t.check_in(pid, checked_in)
        if withdraw:
            t.withdraw_player(pid)
        return t.players[pid]

    detail: dict[str, object] = {"player_id": player_id}
    if name is not None:
        detail["name"] = name
    if team is not _KEEP:
        detail["team"] = team
    if withdraw:
        detail["withdrawn"] = True
    if checked_in is not None:
        detail["checked_in"] = checked_in
    if members is not None:
        detail["members"] = list(members)
    changed = name is not None or team is not _KEEP or checked_in is not None or members is not None
    kind = events.PLAYER_WITHDRAWN if withdraw else events.PLAYER_UPDATED if changed else None
    _, player = commands.run(
        session,
        write,
        "players-update",
        change,
        detail=detail,
        watch=lambda _: lambda _t, p: [(kind, events.player_data(p))] if kind else [],
    )
    return player


def remove(session: Session, write: access.Write, player_id: int) -> None:
    commands.run(
        session,
        write,
        "players-delete",
        lambda t: t.remove_player(PlayerId(player_id)),
        detail={"player_id": player_id},
    )


def request_bye(
    session: Session, write: access.Write, player_id: int, number: int, kind: ByeKind
) -> Player:
    """The player will not play round ``number`` and gets a bye of ``kind`` for it."""
    _, player = commands.run(
        session,
        write,
        "players-bye-request",
        lambda t: t.request_bye(PlayerId(player_id), RoundNumber(number), kind),
        detail={"player_id": player_id, "round": number, "kind": kind.value},
        watch=events.bye_events(player_id, number),
    )
    return player


def cancel_bye(session: Session, write: access.Write, player_id: int, number: int) -> Player:
    """Take back the bye asked for in round ``number`` (the player is paired again)."""
    _, player = commands.run(
        session,
        write,
        "players-bye-cancel",
        lambda t: t.cancel_bye(PlayerId(player_id), RoundNumber(number)),
        detail={"player_id": player_id, "round": number},
        watch=events.bye_events(player_id, number),
    )
    return player
