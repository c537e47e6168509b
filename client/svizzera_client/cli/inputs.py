"""What a person types or writes for the command: a players file, and a result."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from svizzera_client.models import DecidedBy, Forfeit, PlayerCreate, ResultWrite, Side


class InputError(ValueError):
    """A players file or a result that cannot be read; the message says where and why."""


def read_players(path: Path, *, teams: bool = False) -> list[PlayerCreate]:
    """The players of ``path``.

    ``.csv``: columns ``name`` and ``rating`` (a header row naming them is optional; without
    one the first column is the name, the second the rating); ``,``, ``;`` or tab separated.
    Any other file: one name per line, a rating may follow after a last comma
    (``Rossi, 1850``). Blank lines and lines starting with ``#`` are skipped; ratings are
    optional everywhere.

    ``teams`` (doubles): each entry is a team of two. In a ``.csv`` the header names the
    columns ``member_1`` and ``member_2`` (``name`` is the team's name); in any other file a
    line names the two players split by `` / `` (``Rossi / Bianchi``), which is also the
    team's name.
    """
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text") from None
    players = _from_csv(path, text) if path.suffix.lower() == ".csv" else _from_lines(path, text)
    if not players:
        raise InputError(f"{path} has no players")
    if teams:
        for number, player in enumerate(players, start=1):
            if player.members is None:
                player.members = [m.strip() for m in player.name.split(" / ")]
            if len(player.members) != 2 or not all(player.members):
                raise InputError(
                    f"{path}, entry {number} ({player.name!r}): a team names its two players "
                    "(`A / B` on a line, or the columns member_1 and member_2 of a .csv)"
                )
    return players


def _from_lines(path: Path, text: str) -> list[PlayerCreate]:
    players = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, comma, rating = line.rpartition(",")
        if comma and rating.strip().isdigit():
            players.append(PlayerCreate(name=name.strip(), rating=int(rating)))
        else:
            players.append(PlayerCreate(name=line))
    return players


def _from_csv(path: Path, text: str) -> list[PlayerCreate]:
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:4096], ",;\t")
    except csv.Error:
        dialect = csv.excel  # a single column: nothing to sniff
    name_at: int = 0
    rating_at: int | None = 1
    members_at: tuple[int, int] | None = None
    players: list[PlayerCreate] = []
    header_possible = True
    for number, row in enumerate(csv.reader(text.splitlines(), dialect), start=1):
        cells = [cell.strip() for cell in row]
        if not any(cells) or cells[0].startswith("#"):
            continue
        lowered = [cell.lower() for cell in cells]
        if header_possible and "name" in lowered:
            name_at = lowered.index("name")
            rating_at = lowered.index("rating") if "rating" in lowered else None
            if "member_1" in lowered and "member_2" in lowered:
                members_at = (lowered.index("member_1"), lowered.index("member_2"))
            header_possible = False
            continue
        header_possible = False
        name = cells[name_at] if name_at < len(cells) else ""
        rating = cells[rating_at] if rating_at is not None and rating_at < len(cells) else ""
        if not name:
            raise InputError(f"{path}, line {number}: no name")
        if rating and not rating.isdigit():
            raise InputError(f"{path}, line {number}: rating {rating!r} is not a whole number")
        members = None
        if members_at is not None:
            members = [cells[i] if i < len(cells) else "" for i in members_at]
        players.append(
            PlayerCreate(name=name, rating=int(rating) if rating else None, members=members)
        )
    return players


SCORE = re.compile(r"^\s*(\d{1,3})\s*[-:–]\s*(\d{1,3})\s*$")
SIDES: tuple[Side, ...] = ("home", "away")
FORFEITS: tuple[Forfeit, ...] = ("home", "away", "both")
DECIDED_BY: tuple[DecidedBy, ...] = ("extra_time", "penalties", "golden_goal", "other")


def parse_score(
    score: str, *, winner: Side | None = None, decided_by: DecidedBy | None = None
) -> ResultWrite:
    """``"2-1"`` (or ``2:1``) as a result; a level final-phase score also names ``winner``."""
    found = SCORE.match(score)
    if found is None:
        raise InputError(f"{score!r} is not a score like 2-1")
    home, away = int(found[1]), int(found[2])
    return ResultWrite(home=home, away=away, winner=winner, decided_by=decided_by)


def parse_answer(answer: str) -> ResultWrite:
    """A result as typed at the interactive prompt:

    ``2-1`` · ``1-1 home`` (level, home wins: a final-phase tie) · ``1-1 away penalties`` ·
    ``forfeit away`` (the away side did not show) · ``forfeit both`` (neither did)
    """
    words = answer.split()
    if len(words) == 2 and words[0] == "forfeit" and words[1] in FORFEITS:
        return ResultWrite(forfeit=_forfeit(words[1]))
    if not words or len(words) > 3:
        raise InputError(
            f"{answer!r}: type a score like 2-1, '1-1 home', 'forfeit away' or 'forfeit both'"
        )
    winner = _side(words[1]) if len(words) > 1 else None
    decided_by = _decided_by(words[2]) if len(words) > 2 else None
    return parse_score(words[0], winner=winner, decided_by=decided_by)


def _side(word: str) -> Side:
    for side in SIDES:
        if word == side:
            return side
    raise InputError(f"{word!r} is not a side: home or away")


def _forfeit(word: str) -> Forfeit:
    for absent in FORFEITS:
        if word == absent:
            return absent
    raise InputError(f"{word!r} is not who did not show: home, away or both")


def _decided_by(word: str) -> DecidedBy:
    for way in DECIDED_BY:
        if word == way:
            return way
    raise InputError(f"{word!r} is not one of {', '.join(DECIDED_BY)}")
