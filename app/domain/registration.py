"""Registration: the players an organizer lists, their names, start numbers and groups
(``tournament.md``, "Settings, chosen at creation": names unique after trimming, compared
case-insensitively; start numbers by rating. ``docs/rules.md``: "Groups", and the pairing numbers
of "Tournaments paired `dutch`"), and the two players of a team entry (``docs/rules.md``,
"Doubles")."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from app.domain import chess
from app.domain.errors import DuplicateName, InvalidSettings, RepeatedName
from app.domain.forbidden import clean_team
from app.domain.formats import GroupsSetting
from app.domain.groups import assign_groups, name_key
from app.domain.pairing.registry import SYSTEMS
from app.domain.types import Entry, FideTitle, PairingSystem, Player, PlayerId

MAX_NAME_LENGTH = 80
TEAM_SIZE = 2
"""A team entry is two players (doubles)."""


@dataclass(frozen=True, slots=True)
class NewPlayer:
    """A player as the organizer lists them; the tournament gives the id and start number.
    ``members`` names the two players of a team entry (none for a single player)."""

    name: str
    rating: int | None = None
    title: FideTitle | None = None
    fide_id: int | None = None
    team: str | None = None
    members: tuple[str, ...] = ()


def listed_players(players: Sequence[NewPlayer], entry: Entry = Entry.PLAYER) -> list[Player]:
    """The players listed at creation: ids and start numbers in list order, each name once,
    and each team member in one team."""
    listed: list[Player] = []
    seen: set[str] = set()
    for number, new in enumerate(players, start=1):
        members = clean_members(new.members, entry)
        try:
            check_new_members(listed, members)
        except DuplicateName as twice:  # a list that names one person twice is never valid
            raise RepeatedName(str(twice)) from None
        player = Player(
            PlayerId(number),
            clean_name(new.name),
            number,
            new.rating,
            title=new.title,
            fide_id=new.fide_id,
            team=clean_team(new.team),
            members=members,
        )
        if name_key(player.name) in seen:
            raise RepeatedName(
                f"a player named {player.name!r} is listed twice: list each player once, "
                "and tell namesakes apart (an initial, a town)"
            )
        seen.add(name_key(player.name))
        listed.append(player)
    return listed


def clean_name(name: str) -> str:
    """Whitespace runs become one space; 1 to 80 characters, none of them a control character."""
    cleaned = " ".join(name.split())
    if not 1 <= len(cleaned) <= MAX_NAME_LENGTH:
        raise InvalidSettings(
            f"a player name has 1 to {MAX_NAME_LENGTH} characters: "
            + ("write one" if not cleaned else f"shorten it (this one has {len(cleaned)})")
        )
    if any(unicodedata.category(c) == "Cc" for c in cleaned):
        raise InvalidSettings("a player name has no control characters: remove them")
    return cleaned


def clean_members(members: Sequence[str], entry: Entry) -> tuple[str, ...]:
    """A team entry's two players, each name cleaned as a player's and the two different; a
    single player's entry names none."""
    if entry is Entry.PLAYER:
        if members:
            raise InvalidSettings(
                'members name the two players of a team entry (`entry: "team"`): this '
                "tournament's entries are single players, leave them out"
            )
        return ()
    if len(members) != TEAM_SIZE:
        raise InvalidSettings(
            f"a team entry names its {TEAM_SIZE} players in `members` "
            f"(this one names {len(members)})"
        )
    cleaned = tuple(clean_name(m) for m in members)
    if len({name_key(m) for m in cleaned}) < len(cleaned):
        raise InvalidSettings(
            f"the two players of a team are two people: {cleaned[0]!r} is named twice"
        )
    return cleaned


def check_new_members(
    players: Iterable[Player], members: Sequence[str], *, ignore: PlayerId | None = None
) -> None:
    """A person plays in one team of the tournament (names compared as player names are)."""
    keys = {name_key(m) for m in members}
    for p in players:
        if p.id == ignore:
            continue
        for member in p.members:
            if name_key(member) in keys:
                raise DuplicateName(
                    f"{member!r} already plays in the team {p.name!r}: a player is in one "
                    "team of the tournament (tell namesakes apart: an initial, a town)"
                )


def check_new_name(players: Iterable[Player], name: str, *, ignore: PlayerId | None = None) -> None:
    """Names are unique in a tournament, compared trimmed and case-insensitively."""
    key = name_key(name)
    for p in players:
        if p.id != ignore and name_key(p.name) == key:
            raise DuplicateName(
                f"a player named {p.name!r} is already in the tournament: tell the two "
                "apart (an initial, a town)"
            )


def start_numbers(players: Iterable[Player], pairing: PairingSystem) -> dict[PlayerId, Player]:
    """Start numbers 1..N, by id: by rating when everyone has one, else in registration order;
    a system with ``fide_numbers`` (``dutch``): C.04.2 Art. 2 (``chess.pairing_key``)."""
    ordered = sorted(players, key=lambda p: p.id)
    if SYSTEMS[pairing].capabilities.fide_numbers:
        ordered.sort(key=chess.pairing_key)
    elif ordered and all(p.rating is not None for p in ordered):
        ordered.sort(key=lambda p: -(p.rating or 0))
    renumbered = [replace(p, start_number=i) for i, p in enumerate(ordered, start=1)]
    return {p.id: p for p in sorted(renumbered, key=lambda p: p.id)}


def with_groups(
    players: Mapping[PlayerId, Player],
    setting: GroupsSetting | None,
    *,
    seed: int,
    strict: bool,
) -> dict[PlayerId, Player]:
    """The players with their groups by ``setting`` (``groups.assign_groups``), or none.

    ``strict`` also refuses manual groups that name nobody (checked when settings are set,
    not when a player is renamed or removed later).
    """
    if setting is None:
        return {pid: replace(p, group=None) for pid, p in players.items()}
    by_number = sorted(players.values(), key=lambda p: p.start_number)
    groups = assign_groups(by_number, setting, seed=seed, strict=strict)
    return {pid: replace(p, group=groups[pid]) for pid, p in players.items()}
