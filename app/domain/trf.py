"""The FIDE Tournament Report File (TRF): its records as values, read and written.

A TRF is a text file of fixed-column records, one per line (FIDE Handbook C.04 Annex 2, TRF-16
and TRF-2026). ``read_trf`` turns the text into a ``TrfDocument`` that keeps every line in its
order, so ``write_trf(read_trf(text))`` gives the text back (line endings become CR, the
format's own, and trailing blanks are dropped). What the records mean for a tournament is left
to the caller; this module only knows the columns:

- ``001`` player records: starting rank 5–8, sex 10, title 11–13, name 15–47, rating 49–52,
  federation 54–56, FIDE number 58–68, birth date 70–79, points 81–84, rank 86–89, then one
  10-column block per round from column 92: opponent (4), colour ``w``/``b``/``-``, result.
- tournament tags ``012`` (name), ``092`` (type of tournament), ``142`` (number of rounds) and
  ``152`` (initial colour ``W``/``B``) of TRF-2026, and the extension lines of TRF-16 that
  pairing programs use for the same two facts: ``XXR`` (number of rounds) and ``XXC``
  (``white1``/``black1``). Every other line is kept as it is (``TrfTag``, ``TrfNote``).

Errors are ``InvalidTrf`` and name the line and column (both from 1) where the file went wrong.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from app.domain.errors import InvalidTrf
from app.domain.types import Score

__all__ = [
    "MAX_LINES",
    "TrfColour",
    "TrfDocument",
    "TrfGame",
    "TrfNote",
    "TrfPlayer",
    "TrfRecord",
    "TrfResult",
    "TrfTag",
    "read_trf",
    "write_trf",
]

ROUNDS_TAGS = ("142", "XXR")
INITIAL_COLOUR_TAGS = ("152", "XXC")
_FIRST_BLOCK = 91
"""0-based index of a player record's first round block (column 92)."""
_BLOCK = 10
MAX_LINES = 65_536
"""A TRF's lines at most: sixteen times the players a tournament takes, and more than a file of
the body cap (1 MB) can hold in lines of a player record (91 columns and more) or a ``240``."""
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_POINTS = re.compile(r"\d{1,3}(?:\.[05])?")


class TrfColour(StrEnum):
    """Column 97 of a round block: the scheduled colour, ``-`` for a bye or no pairing."""

    WHITE = "w"
    BLACK = "b"
    NONE = "-"


class TrfResult(StrEnum):
    """Column 99 of a round block (letters are case-insensitive; a blank reads as ``Z``)."""

    WIN = "1"
    DRAW = "="
    LOSS = "0"
    FORFEIT_WIN = "+"
    FORFEIT_LOSS = "-"
    UNRATED_WIN = "W"
    UNRATED_DRAW = "D"
    UNRATED_LOSS = "L"
    HALF_POINT_BYE = "H"
    FULL_POINT_BYE = "F"
    PAIRING_ALLOCATED_BYE = "U"
    ZERO_POINT_BYE = "Z"


_MIRROR = {
    TrfResult.WIN: {TrfResult.LOSS},
    TrfResult.LOSS: {TrfResult.WIN},
    TrfResult.DRAW: {TrfResult.DRAW},
    TrfResult.FORFEIT_WIN: {TrfResult.FORFEIT_LOSS},
    TrfResult.FORFEIT_LOSS: {TrfResult.FORFEIT_WIN, TrfResult.FORFEIT_LOSS},
    TrfResult.UNRATED_WIN: {TrfResult.UNRATED_LOSS},
    TrfResult.UNRATED_LOSS: {TrfResult.UNRATED_WIN},
    TrfResult.UNRATED_DRAW: {TrfResult.UNRATED_DRAW},
}
"""What the opponent's block may say for each result of a game (``-``/``-``: both forfeited)."""
_COLOURS = {
    **{c.value: c for c in TrfColour},
    **{c.value.upper(): c for c in TrfColour},
    " ": TrfColour.NONE,
}
_RESULTS = {
    **{r.value: r for r in TrfResult},
    **{r.value.lower(): r for r in TrfResult},
    " ": TrfResult.ZERO_POINT_BYE,
}
"""Each character a round block's colour or result may be, and what it reads as (a dictionary
look-up: a file may hold a hundred thousand blocks)."""
_FORFEITS = (TrfResult.FORFEIT_WIN, TrfResult.FORFEIT_LOSS)
_NEEDS_OPPONENT = frozenset(_MIRROR) - {*_FORFEITS, TrfResult.DRAW}
"""Results that only a game gives. ``0000 - +``, ``0000 - =`` and ``0000 - -`` are older ways
to write a full-point bye, a half-point bye and an absence, so they stay readable."""
_PAIRED_COLOURS = ((TrfColour.WHITE, TrfColour.BLACK), (TrfColour.BLACK, TrfColour.WHITE))
_AGREEING_COLOURS = frozenset((*_PAIRED_COLOURS, (TrfColour.NONE, TrfColour.NONE)))
"""The colours two opponents' blocks may show: one White and one Black, or no colours (a
forfeit)."""


@dataclass(frozen=True, slots=True)
class TrfGame:
    """One round block: the opponent's starting rank (``None`` for ``0000``), colour, result."""

    opponent: int | None
    colour: TrfColour
    result: TrfResult


@dataclass(frozen=True, slots=True)
class TrfPlayer:
    """A ``001`` record. ``games[r - 1]`` is round *r*; ``None`` is a blank block (≡ ``Z``).

    ``points`` is in half-points; ``None`` (like ``rating``, ``fide_id`` and ``rank``) when the
    field is blank.
    """

    start_number: int
    name: str
    sex: str = ""
    title: str = ""
    rating: int | None = None
    federation: str = ""
    fide_id: int | None = None
    birth_date: str = ""
    points: Score | None = None
    rank: int | None = None
    games: tuple[TrfGame | None, ...] = ()


@dataclass(frozen=True, slots=True)
class TrfTag:
    """Any other record: a three-character code (``012``, ``XXR``, ``240``…) and its text."""

    code: str
    value: str


@dataclass(frozen=True, slots=True)
class TrfNote:
    """A blank line or a ``###`` comment, kept verbatim."""

    text: str


TrfRecord = TrfPlayer | TrfTag | TrfNote


@dataclass(frozen=True, slots=True)
class TrfDocument:
    """A whole file: its records in file order (record *i* is line *i + 1*)."""

    records: tuple[TrfRecord, ...]
    players: tuple[TrfPlayer, ...] = field(init=False, repr=False, compare=False)
    player_lines: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """The line (from 1) of each of ``players``."""
    _first_tags: dict[str, tuple[int, TrfTag]] = field(init=False, repr=False, compare=False)
    """Each code's first tag, with its line (from 1)."""
    _other_tags: tuple[tuple[int, TrfTag], ...] = field(init=False, repr=False, compare=False)
    """The other tags (a code seen before), with their lines."""

    def __post_init__(self) -> None:
        # One pass, so that every question below costs the records it asks about, not the file
        # (a file may be a million blank lines, or a quarter of a million different tags).
        players: list[TrfPlayer] = []
        player_lines: list[int] = []
        first: dict[str, tuple[int, TrfTag]] = {}
        others: list[tuple[int, TrfTag]] = []
        for number, record in enumerate(self.records, start=1):
            if isinstance(record, TrfPlayer):
                players.append(record)
                player_lines.append(number)
            elif isinstance(record, TrfTag):
                if record.code in first:
                    others.append((number, record))
                else:
                    first[record.code] = (number, record)
        object.__setattr__(self, "players", tuple(players))
        object.__setattr__(self, "player_lines", tuple(player_lines))
        object.__setattr__(self, "_first_tags", first)
        object.__setattr__(self, "_other_tags", tuple(others))

    def tagged(self, code: str) -> list[tuple[int, TrfTag]]:
        """Every tag with ``code``, in file order, each with its line (from 1)."""
        if code not in self._first_tags:
            return []
        return [self._first_tags[code], *(t for t in self._other_tags if t[1].code == code)]

    def line_of(self, *codes: str) -> int | None:
        """The line (from 1) of the first tag with one of ``codes``."""
        first = self._first(codes)
        return None if first is None else first[0]

    def tag(self, *codes: str) -> str | None:
        """The value of the first tag with one of ``codes``, in file order."""
        first = self._first(codes)
        return None if first is None else first[1].value

    def _first(self, codes: tuple[str, ...]) -> tuple[int, TrfTag] | None:
        found = [self._first_tags[c] for c in codes if c in self._first_tags]
        return min(found, key=lambda tag: tag[0], default=None)

    @property
    def name(self) -> str:
        return (self.tag("012") or "").strip()

    @property
    def pairing_system(self) -> str | None:
        """The ``092`` type of tournament, e.g. ``FIDE_DUTCH_2025``."""
        value = self.tag("092")
        return value.strip() if value is not None else None

    @property
    def total_rounds(self) -> int | None:
        """The planned number of rounds: ``142`` (TRF-2026) or ``XXR`` (TRF-16 extension)."""
        value = self.tag(*ROUNDS_TAGS)
        return int(value) if value is not None else None

    @property
    def initial_colour(self) -> TrfColour | None:
        """The top seed's colour in round 1: ``152 W``/``B`` or ``XXC white1``/``black1``."""
        value = self.tag(*INITIAL_COLOUR_TAGS)
        if value is None:
            return None
        for token in value.lower().split():
            if token in ("w", "white1"):
                return TrfColour.WHITE
            if token in ("b", "black1"):
                return TrfColour.BLACK
        return None

    @property
    def rounds_played(self) -> int:
        """The number of round blocks of the longest player record."""
        return max((len(p.games) for p in self.players), default=0)


# --- reading ----------------------------------------------------------------------------------


def read_trf(text: str) -> TrfDocument:
    """Read a TRF (TRF-16 or TRF-2026, any line ending) into its records.

    Besides each record's columns it checks what a file must hold together: starting ranks are
    unique, an opponent's record exists and names this player back in the same round with the
    other colour and the mirrored result. Time and memory grow with the text's length alone,
    and a file has at most ``MAX_LINES`` lines.
    """
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) > MAX_LINES:
        raise InvalidTrf(MAX_LINES + 1, 1, f"a TRF has at most {MAX_LINES} lines")
    records: list[TrfRecord] = []
    players: list[tuple[int, TrfPlayer]] = []
    blocks: dict[str, TrfGame | None] = {}
    for number, line in enumerate(lines, start=1):
        record = _read_line(line.rstrip(" \t"), number, blocks)
        records.append(record)
        if isinstance(record, TrfPlayer):
            players.append((number, record))
    _check_players(players)
    return TrfDocument(tuple(records))


_BLANK = TrfNote("")


def _read_line(line: str, number: int, blocks: dict[str, TrfGame | None]) -> TrfRecord:
    if not line:
        return _BLANK  # (one object for every blank line: a file may hold a million)
    if not line.isprintable() and not line.replace("\t", " ").isprintable():
        for index, char in enumerate(line):
            if char != "\t" and not char.isprintable():
                raise InvalidTrf(number, index + 1, f"control character {char!r}")
    if line.strip() == "" or line.startswith("###"):
        return TrfNote(line)
    code = line[:3]
    if len(line) < 3 or line[3:4] not in ("", " "):
        raise InvalidTrf(number, min(len(line) + 1, 4), "a record starts with a 3-character code")
    if code == "001":
        return _read_player(line, number, blocks)
    value = line[4:]
    if code in ROUNDS_TAGS:
        _read_int(value, number, 5, "number of rounds", minimum=1)
    elif code == "152":
        if value.strip().upper() not in ("W", "B"):
            raise InvalidTrf(number, 5, "initial colour is W or B")
    elif code == "XXC":
        tokens = value.lower().split()
        if not tokens or any(t not in ("white1", "black1", "rank") for t in tokens):
            raise InvalidTrf(number, 5, "XXC takes white1, black1 or rank")
    return TrfTag(code, value)


def _read_player(line: str, number: int, blocks: dict[str, TrfGame | None]) -> TrfPlayer:
    """A ``001`` record. ``blocks`` holds the round blocks read so far in the file, each with
    its game: a block repeats (an opponent, a colour and a result: a few thousand different
    ones in a 50,000-game file), and a block read once is valid wherever it stands (one that
    is not raises where it is first met, with its line and column). A game is immutable, so
    the records share it."""
    padded = line.ljust(_FIRST_BLOCK)
    for column in (9, 14, 48, 53, 57, 69, 80, 85, 90, 91):
        if padded[column - 1] != " ":
            raise InvalidTrf(number, column, "column must be blank in a 001 record")
    start_number = _read_int(padded[4:8], number, 5, "starting rank", minimum=1)
    if start_number is None:
        raise InvalidTrf(number, 5, "starting rank is missing")
    games: list[TrfGame | None] = []
    for offset in range(_FIRST_BLOCK, len(line), _BLOCK):
        block = line[offset : offset + _BLOCK]
        try:
            game = blocks[block]
        except KeyError:
            game = blocks[block] = _read_game(block.ljust(_BLOCK), number, offset + 1)
        games.append(game)
    return TrfPlayer(
        start_number=start_number,
        sex=padded[9].strip(),
        title=padded[10:13].strip(),
        name=padded[14:47].strip(),
        rating=_read_int(padded[48:52], number, 49, "rating"),
        federation=padded[53:56].strip(),
        fide_id=_read_int(padded[57:68], number, 58, "FIDE number"),
        birth_date=padded[69:79].strip(),
        points=_read_points(padded[80:84], number, 81),
        rank=_read_int(padded[85:89], number, 86, "rank"),
        games=tuple(games),
    )


def _read_game(block: str, number: int, column: int) -> TrfGame | None:
    if block.strip() == "":
        return None
    for gap in (4, 6, 8, 9):
        if block[gap] != " ":
            raise InvalidTrf(number, column + gap, "column must be blank in a round block")
    opponent = _read_int(block[:4], number, column, "opponent") or None
    colour = _COLOURS.get(block[5])
    if colour is None:
        raise InvalidTrf(number, column + 5, "colour is w, b or -")
    result = _RESULTS.get(block[7])
    if result is None:
        codes = " ".join(r.value for r in TrfResult)
        raise InvalidTrf(number, column + 7, f"result is one of {codes}")
    if opponent is None and result in _NEEDS_OPPONENT:
        raise InvalidTrf(number, column, f"result {result.value} is a game: it needs an opponent")
    if opponent is not None and result not in _MIRROR:
        raise InvalidTrf(number, column, f"result {result.value} is a bye: opponent must be 0000")
    if opponent is not None and colour is TrfColour.NONE and result not in _FORFEITS:
        raise InvalidTrf(number, column + 5, "a game between two players has colour w or b")
    return TrfGame(opponent, colour, result)


def _read_int(text: str, line: int, column: int, what: str, *, minimum: int = 0) -> int | None:
    stripped = text.strip()
    if stripped == "":
        return None
    if not stripped.isascii() or not stripped.isdigit() or int(stripped) < minimum:
        raise InvalidTrf(line, column, f"{what} is not a whole number (got {stripped!r})")
    return int(stripped)


def _read_points(text: str, line: int, column: int) -> Score | None:
    stripped = text.strip()
    if stripped == "":
        return None
    if not _POINTS.fullmatch(stripped):
        raise InvalidTrf(
            line, column, f"points are whole or half points like 11.5 (got {stripped!r})"
        )
    whole, _, half = stripped.partition(".")
    return Score(int(whole) * 2 + (1 if half == "5" else 0))


def _check_players(players: Sequence[tuple[int, TrfPlayer]]) -> None:
    by_number: dict[int, TrfPlayer] = {}
    for line, player in players:
        if player.start_number in by_number:
            raise InvalidTrf(line, 5, f"starting rank {player.start_number} repeated")
        by_number[player.start_number] = player
    for line, player in players:
        start = player.start_number
        for index, game in enumerate(player.games):
            if game is None or game.opponent is None:
                continue
            opponent = by_number.get(game.opponent)
            back = (
                opponent.games[index]
                if opponent is not None and index < len(opponent.games)
                else None
            )
            # One test for the usual block that agrees with its opponent's; ``_refuse`` says
            # what is wrong with the others.
            if (
                back is None
                or back.opponent != start
                or game.opponent == start
                or (game.colour, back.colour) not in _AGREEING_COLOURS
                or back.result not in _MIRROR[game.result]
            ):
                _refuse(line, index, player, game, opponent)


def _refuse(
    line: int, index: int, player: TrfPlayer, game: TrfGame, opponent: TrfPlayer | None
) -> None:
    """Raise what is wrong with ``player``'s block ``index``, against the record of the
    opponent it names (``None``: no such player)."""
    column = _FIRST_BLOCK + index * _BLOCK + 1
    if game.opponent == player.start_number:
        raise InvalidTrf(line, column, "a player cannot meet themselves")
    if opponent is None:
        raise InvalidTrf(line, column, f"no player with starting rank {game.opponent}")
    back = opponent.games[index] if index < len(opponent.games) else None
    if back is None or back.opponent != player.start_number:
        raise InvalidTrf(
            line,
            column,
            f"player {game.opponent} does not name {player.start_number} in round {index + 1}",
        )
    colours = (game.colour, back.colour)
    if colours not in _AGREEING_COLOURS:
        raise InvalidTrf(line, column + 5, "opponents must have different colours")
    if back.result not in _MIRROR[game.result]:
        raise InvalidTrf(
            line,
            column + 7,
            f"result {game.result.value} does not match the opponent's {back.result.value}",
        )


# --- writing ----------------------------------------------------------------------------------


def write_trf(document: TrfDocument) -> str:
    """Write ``document`` in the fixed columns, every line ended by CR (TRF remark 1)."""
    return "".join(_write_record(record) + "\r" for record in document.records)


def _write_record(record: TrfRecord) -> str:
    if isinstance(record, TrfNote):
        return record.text
    if isinstance(record, TrfTag):
        return f"{record.code} {record.value}".rstrip()
    return _write_player(record)


def _write_player(player: TrfPlayer) -> str:
    head = (
        f"001 {player.start_number:>4} {player.sex:1.1}{player.title:>3.3} "
        f"{player.name:<33.33} {_blank_or(player.rating):>4} {player.federation:<3.3} "
        f"{_blank_or(player.fide_id):>11} {player.birth_date:<10.10} "
        f"{_write_points(player.points):>4} {_blank_or(player.rank):>4}  "
    )
    blocks = "".join(_write_game(game) for game in player.games)
    return (head + blocks).rstrip()


def _write_game(game: TrfGame | None) -> str:
    if game is None:
        return " " * _BLOCK
    opponent = "0000" if game.opponent is None else f"{game.opponent:>4}"
    return f"{opponent} {game.colour.value} {game.result.value}  "


def _write_points(points: Score | None) -> str:
    if points is None:
        return ""
    return f"{points // 2}.{5 if points % 2 else 0}"


def _blank_or(value: int | None) -> str:
    return "" if value is None else str(value)
