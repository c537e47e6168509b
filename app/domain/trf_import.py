"""A Tournament Report File read as a ``dutch`` tournament (``POST /v1/tournaments``, TRF body).

``import_trf`` maps a ``TrfDocument`` (``app.domain.trf``) onto a ``Tournament`` with its whole
history, the way ``app.domain.trf_export`` writes one (FIDE Handbook C.04 Annex 2, TRF-2026):

- the rounds paired are those up to the last one in which a player has an opponent or the
  pairing-allocated bye (``U``); the tournament has ``142``/``XXR`` rounds, else as many as
  were paired;
- a round block with an opponent is a match, White at home; its result from White's block
  (``1``/``W`` White wins, ``0``/``L`` Black wins, ``=``/``D`` a draw, ``+``/``-`` a forfeit,
  ``-`` against ``-`` a double forfeit);
- ``U`` is the round's pairing-allocated bye; ``H`` (or ``0000 - =``) and ``Z`` (or
  ``0000 - -``) are byes the player asked for, half-point and zero-point; ``240`` records name
  byes too, and those of rounds not paired yet are the byes asked for the rounds to come;
- a blank block is a round the player was not paired in: blank from round 1 on, a late entry;
  a zero-point bye in every round to come (or, once every round is paired, blank blocks to the
  end) a withdrawal after the player's last round;
- ``152``/``XXC`` is the initial colour (else the colour the highest-ranked player with a game
  in round 1 had, TRF-2026's rule); ``162`` the points (else chess's 1, ½, 0, PAB 1);
- ``260 RRR RRR NNNN NNNN …`` (first and last round, players of whom no two may be paired) are
  hard forbidden pairs, every two of the players listed, unless the record's last round is
  already paired (it no longer forbids anything); the comment ``### SVIZZERA-SOFT-260`` with
  the same fields (``trf_export``) gives soft ones. The rounds in between are not kept: a pair
  holds for every round to come.

What the tournament cannot hold is refused with ``InvalidTrf`` naming the line and column:
full-point byes (``F``), a second ``U`` in a round, names that are blank or
repeated, an unknown title, a number of rounds the format refuses.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterator, Sequence
from dataclasses import dataclass

from app.domain.colours import ColourRule
from app.domain.errors import DomainError, InvalidTrf
from app.domain.forbidden import (
    MAX_FORBIDDEN_PAIRS,
    ForbiddenPair,
    ForbiddenPairId,
    PairKind,
)
from app.domain.formats import FinalPhaseKind, resolve_format
from app.domain.groups import name_key
from app.domain.matches import Match, SwissRound
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.trf import (
    ROUNDS_TAGS,
    TrfColour,
    TrfDocument,
    TrfGame,
    TrfNote,
    TrfPlayer,
    TrfResult,
)
from app.domain.trf_export import CHESS_TABLE, SOFT_260
from app.domain.types import (
    ByeKind,
    FideTitle,
    Forfeit,
    InitialColour,
    PairingSystem,
    Player,
    PlayerId,
    PointsTable,
    RequestedBye,
    Result,
    RoundNumber,
    Score,
    Stage,
)

__all__ = [
    "IMPORTED_PATH",
    "MAX_TOURNAMENT_NAME",
    "ImportedTournament",
    "decode_trf",
    "import_trf",
]

MAX_TOURNAMENT_NAME = 120
_FIRST_BLOCK_COLUMN = 92
_BLOCK = 10
_NAME_COLUMN = 15
_TITLE_COLUMN = 11
_VALUE_COLUMN = 5
"""The first column of a tag's value (after the code and a blank)."""
_SCORE = re.compile(r"([A-Za-z])\s*(\d{1,3}(?:\.[05])?)")
_MAX_POINTS = Score(200)
"""100 points, the most a points table takes."""
IMPORTED_PATH = ("trf",)
"""The ``paths`` of an imported round: it was paired elsewhere and read from the file."""

_WHITE_RESULT = {
    TrfResult.WIN: Result(1, 0),
    TrfResult.UNRATED_WIN: Result(1, 0),
    TrfResult.LOSS: Result(0, 1),
    TrfResult.UNRATED_LOSS: Result(0, 1),
    TrfResult.DRAW: Result(0, 0),
    TrfResult.UNRATED_DRAW: Result(0, 0),
    TrfResult.FORFEIT_WIN: Result(0, 0, forfeit=Forfeit.AWAY),
    TrfResult.FORFEIT_LOSS: Result(0, 0, forfeit=Forfeit.HOME),
}
"""A match's result read from White's (home's) block."""
_DOUBLE_FORFEIT = Result(0, 0, forfeit=Forfeit.BOTH)
"""``-`` against ``-``: neither player showed."""
_REQUESTED = {
    TrfResult.HALF_POINT_BYE: ByeKind.HALF_POINT,
    TrfResult.DRAW: ByeKind.HALF_POINT,
    TrfResult.ZERO_POINT_BYE: ByeKind.ZERO_POINT,
    TrfResult.FORFEIT_LOSS: ByeKind.ZERO_POINT,
}
"""A block without opponent that is a bye the player asked for (``0000 - =``, ``0000 - -``
are older ways to write ``H`` and ``Z``)."""
_BYE_LETTERS = {"H": ByeKind.HALF_POINT, "Z": ByeKind.ZERO_POINT}


@dataclass(frozen=True, slots=True)
class ImportedTournament:
    """The tournament a TRF describes, and its name (``012``)."""

    name: str
    tournament: Tournament


@dataclass(frozen=True, slots=True)
class _Line:
    number: int
    player: TrfPlayer


def import_trf(document: TrfDocument, *, seed: int) -> ImportedTournament:
    """The ``dutch`` tournament of ``document``, every round it holds played as written.

    ``seed`` drives the tournament's later draws. Raises ``InvalidTrf`` (line and column from
    1) for what a tournament cannot hold; see the module docstring.
    """
    lines = _player_lines(document)
    if not lines:
        raise InvalidTrf(1, 1, "a tournament needs 001 player records")
    paired = _rounds_paired(lines)
    total = _total_rounds(document, paired)
    requests = _bye_records(document, lines, paired, total)
    ids = {line.player.start_number: PlayerId(i) for i, line in enumerate(lines, start=1)}
    players = _players(lines, ids, requests, paired=paired, total=total)
    _check_format(document, lines, total)
    rounds, matches = _rounds(lines, ids, paired)
    settings = Settings(
        seed=seed,
        pairing=PairingSystem.DUTCH,
        points=_points_table(document),
        swiss_rounds=total,
        final_phase=FinalPhaseKind.NONE,
        initial_colour=_initial_colour(document, lines),
    )
    forbidden = _forbidden_pairs(document, ids, paired=paired, total=total)
    tournament = Tournament(
        settings, players, rounds=rounds, matches=matches, forbidden_pairs=forbidden
    )
    try:
        settings.check()
        _ = tournament.format
    except DomainError as refused:
        raise _format_refused(document, lines, refused) from refused
    return ImportedTournament(_name(document), tournament)


def _check_format(document: TrfDocument, lines: Sequence[_Line], total: int) -> None:
    """Before any round is built, the most a tournament of the file's players allows: at most
    ``MAX_PLAYERS`` players, and no more rounds than they can play (the tournament's own check,
    below, counts only the players entered from round 1, so it refuses at least as much)."""
    try:
        resolve_format(len(lines), swiss_rounds=total, final_phase=FinalPhaseKind.NONE)
    except DomainError as refused:
        raise _format_refused(document, lines, refused) from refused


def _format_refused(
    document: TrfDocument, lines: Sequence[_Line], refused: DomainError
) -> InvalidTrf:
    line = document.line_of(*ROUNDS_TAGS) or lines[0].number
    return InvalidTrf(line, _VALUE_COLUMN, str(refused))


# -- the file's parts ------------------------------------------------------------------------
# Every step costs what the file holds (its lines, round blocks and 240 entries), never players
# times rounds (a round to come costs a look-up at most): a hostile file of 1 MB is refused, or
# read, in a fraction of a second.


def _player_lines(document: TrfDocument) -> list[_Line]:
    lines = [_Line(n, p) for n, p in zip(document.player_lines, document.players, strict=True)]
    return sorted(lines, key=lambda line: line.player.start_number)


def _name(document: TrfDocument) -> str:
    line = document.line_of("012")
    name = " ".join(document.name.split())
    if line is None or not name:
        raise InvalidTrf(line or 1, _VALUE_COLUMN, "the tournament's name (012) is missing")
    if len(name) > MAX_TOURNAMENT_NAME:
        raise InvalidTrf(
            line,
            _VALUE_COLUMN + MAX_TOURNAMENT_NAME,
            f"a name has at most {MAX_TOURNAMENT_NAME} characters",
        )
    return name


def _block(player: TrfPlayer, number: int) -> TrfGame | None:
    return player.games[number - 1] if number <= len(player.games) else None


def _column(number: int) -> int:
    """The first column of round ``number``'s block."""
    return _FIRST_BLOCK_COLUMN + (number - 1) * _BLOCK


def _is_pairing(game: TrfGame | None) -> bool:
    """An opponent, or the pairing-allocated bye: the round was paired."""
    return game is not None and (
        game.opponent is not None or game.result is TrfResult.PAIRING_ALLOCATED_BYE
    )


def _rounds_paired(lines: Sequence[_Line]) -> int:
    """The last round any player's blocks show paired. Each record is read from its end down
    to the last round found so far: once a record reaches it, the others cost a step each."""
    paired = 0
    for line in lines:
        games = line.player.games
        for number in range(len(games), paired, -1):
            if _is_pairing(games[number - 1]):
                paired = number
                break
    return paired


def _total_rounds(document: TrfDocument, paired: int) -> int:
    total = document.total_rounds
    line = document.line_of(*ROUNDS_TAGS)
    if total is None or line is None:  # (the reader gives a total only with its line)
        if paired == 0:
            raise InvalidTrf(1, 1, "no round is paired and no 142 (or XXR) says how many rounds")
        return paired
    if total < paired:
        raise InvalidTrf(line, _VALUE_COLUMN, f"{total} rounds, but {paired} are paired")
    return total


# -- byes asked for ---------------------------------------------------------------------------

_Requests = dict[tuple[int, int], ByeKind]
"""(start number, round) -> the bye asked for, from the round blocks and ``240`` records."""


def _block_bye(line: _Line, number: int) -> ByeKind | None:
    """The bye a block without opponent asks for; ``F`` is refused (Svizzera gives none)."""
    game = _block(line.player, number)
    if game is None or game.opponent is not None:
        return None
    if game.result in (TrfResult.FULL_POINT_BYE, TrfResult.FORFEIT_WIN):
        raise InvalidTrf(
            line.number, _column(number) + 7, "full-point byes are not given: only H and Z"
        )
    return _REQUESTED.get(game.result)


def _bye_records(
    document: TrfDocument, lines: Sequence[_Line], paired: int, total: int
) -> _Requests:
    """The byes of every block without an opponent, with the ``240`` records checked
    against them (a round paired) or added (a round to come)."""
    requests: _Requests = {}
    for line in lines:
        games = line.player.games
        for number, game in enumerate(games[:total], start=1):
            if game is None or game.opponent is not None:
                continue
            kind = _block_bye(line, number)
            if kind is not None:
                requests[line.player.start_number, number] = kind
        if len(games) > total:
            past = total + 1
            raise InvalidTrf(line.number, _column(past), f"round {past} is past the {total} rounds")
    by_start = {line.player.start_number: line.player for line in lines}
    for line_number, record in document.tagged("240"):
        for start, number, kind in _read_240(record.value, line_number, by_start.keys(), total):
            asked = requests.get((start, number))
            if asked is None and number <= paired and kind is ByeKind.ZERO_POINT:
                # A blank block reads as Z.
                asked = kind if _block(by_start[start], number) is None else None
            if number <= paired and asked is not kind:
                raise InvalidTrf(
                    line_number,
                    _VALUE_COLUMN,
                    f"player {start}'s block of round {number} is not this bye",
                )
            if asked is not None and asked is not kind:
                raise InvalidTrf(
                    line_number, _VALUE_COLUMN, f"player {start} has another bye there"
                )
            requests[start, number] = kind
    return requests


def _read_240(
    value: str, line: int, known: Container[int], total: int
) -> Iterator[tuple[int, int, ByeKind]]:
    """``240 T RRR NNNN NNNN …``: bye type (F, H, Z), round, the players' start numbers."""
    tokens = [(m.group(), _VALUE_COLUMN + m.start()) for m in re.finditer(r"\S+", value)]
    if len(tokens) < 3:
        raise InvalidTrf(line, _VALUE_COLUMN, "240 takes a bye type, a round and players")
    (letter, letter_at), (round_text, round_at) = tokens[0], tokens[1]
    kind = _BYE_LETTERS.get(letter.upper())
    if letter.upper() == "F":
        raise InvalidTrf(line, letter_at, "full-point byes are not given: only H and Z")
    if kind is None:
        raise InvalidTrf(line, letter_at, "the bye type is F, H or Z")
    number = _whole(round_text, line, round_at, "round")
    if not 1 <= number <= total:
        raise InvalidTrf(line, round_at, f"round {number} is not one of the {total} rounds")
    for text, at in tokens[2:]:
        start = _whole(text, line, at, "starting rank")
        if start not in known:
            raise InvalidTrf(line, at, f"no player with starting rank {start}")
        yield start, number, kind


def _forbidden_pairs(
    document: TrfDocument, ids: dict[int, PlayerId], *, paired: int, total: int
) -> list[ForbiddenPair]:
    """The ``260`` records (hard) and ``SOFT_260`` comments (soft) as forbidden pairs, by
    first appearance; a pair both hard and soft is hard."""
    found: dict[tuple[PlayerId, PlayerId], PairKind] = {}
    records = [
        (line, tag.value, _VALUE_COLUMN, PairKind.HARD) for line, tag in document.tagged("260")
    ]
    records.extend(
        (number, record.text[len(SOFT_260) :], len(SOFT_260) + 1, PairKind.SOFT)
        for number, record in enumerate(document.records, start=1)
        if isinstance(record, TrfNote) and record.text.startswith(SOFT_260)
    )
    for line, value, column, kind in records:
        starts = list(_read_260(value, line, column, ids.keys(), paired=paired, total=total))
        for i, first in enumerate(starts):
            for second in starts[i + 1 :]:
                a, b = sorted((ids[first], ids[second]))
                if a != b and found.get((a, b)) is not PairKind.HARD:
                    found[a, b] = kind
        if len(found) > MAX_FORBIDDEN_PAIRS:
            raise InvalidTrf(
                line, column, f"more than {MAX_FORBIDDEN_PAIRS} forbidden pairs in the file"
            )
    return [
        ForbiddenPair(ForbiddenPairId(i), a, b, kind)
        for i, ((a, b), kind) in enumerate(found.items(), start=1)
    ]


def _read_260(
    value: str, line: int, column: int, known: Container[int], *, paired: int, total: int
) -> Iterator[int]:
    """``RRR RRR NNNN NNNN …``: first and last round, the players' start numbers; nothing
    when the last round is already paired."""
    tokens = [(m.group(), column + m.start()) for m in re.finditer(r"\S+", value)]
    if len(tokens) < 4:
        raise InvalidTrf(line, column, "260 takes a first and a last round and two players or more")
    (first_text, first_at), (last_text, last_at) = tokens[0], tokens[1]
    first = _whole(first_text, line, first_at, "first round")
    last = _whole(last_text, line, last_at, "last round")
    if not 1 <= first <= last <= total:
        raise InvalidTrf(
            line, first_at, f"the rounds {first} to {last} are not within the {total} rounds"
        )
    starts = [(_whole(text, line, at, "starting rank"), at) for text, at in tokens[2:]]
    for start, at in starts:
        if start not in known:
            raise InvalidTrf(line, at, f"no player with starting rank {start}")
    if last <= paired:
        return
    yield from (start for start, _ in starts)


def _whole(text: str, line: int, column: int, what: str) -> int:
    if not text.isascii() or not text.isdigit():
        raise InvalidTrf(line, column, f"{what} is not a whole number (got {text!r})")
    return int(text)


# -- players ----------------------------------------------------------------------------------


def _players(
    lines: Sequence[_Line],
    ids: dict[int, PlayerId],
    requests: _Requests,
    *,
    paired: int,
    total: int,
) -> list[Player]:
    seen: dict[str, int] = {}
    asked: dict[int, dict[int, ByeKind]] = {}
    for (start, number), kind in sorted(requests.items()):
        asked.setdefault(start, {})[number] = kind
    players = []
    for line in lines:
        record = line.player
        name = " ".join(record.name.split())
        if not name:
            raise InvalidTrf(line.number, _NAME_COLUMN, "a player needs a name")
        if name_key(name) in seen:
            raise InvalidTrf(
                line.number, _NAME_COLUMN, f"{name!r} is the name of line {seen[name_key(name)]}"
            )
        seen[name_key(name)] = line.number
        start = record.start_number
        own = asked.get(start, {})
        present = {n for n, game in enumerate(record.games[:paired], 1) if game is not None}
        present.update(n for n in own if n <= paired)
        entered = min(present, default=paired + 1)
        last = max(present, default=paired)
        to_come = range(paired + 1, total + 1)
        absent_to_the_end = bool(to_come) and all(own.get(n) is ByeKind.ZERO_POINT for n in to_come)
        finished_early = not to_come and last < paired
        withdrawn = RoundNumber(last) if absent_to_the_end or finished_early else None
        byes = tuple(
            RequestedBye(RoundNumber(n), kind)
            for n, kind in own.items()
            if withdrawn is None or n <= withdrawn
        )
        players.append(
            Player(
                ids[start],
                name,
                start,
                record.rating,
                entered_round=RoundNumber(entered),
                withdrawn_after=withdrawn,
                title=_title(line),
                fide_id=record.fide_id or None,
                requested_byes=byes,
            )
        )
    return players


def _title(line: _Line) -> FideTitle | None:
    title = line.player.title.upper()
    if not title:
        return None
    try:
        return FideTitle(title)
    except ValueError:
        titles = " ".join(t.value for t in FideTitle)
        raise InvalidTrf(line.number, _TITLE_COLUMN, f"the title is one of {titles}") from None


# -- rounds -----------------------------------------------------------------------------------


def _rounds(
    lines: Sequence[_Line], ids: dict[int, PlayerId], paired: int
) -> tuple[list[SwissRound], list[Match]]:
    """Each paired round: its matches (White at home, boards by the higher-ranked player's
    starting rank) and its pairing-allocated bye."""
    rounds: list[SwissRound] = []
    matches: list[Match] = []
    blocks: list[list[tuple[_Line, TrfGame]]] = [[] for _ in range(paired)]
    for line in lines:  # (in start order, so each round's blocks are too)
        for index, game in enumerate(line.player.games[:paired]):
            if game is not None:
                blocks[index].append((line, game))
    players = {line.player.start_number: line.player for line in lines}
    white, no_colour = TrfColour.WHITE, TrfColour.NONE
    allocated, forfeit_loss, swiss, fide = (
        TrfResult.PAIRING_ALLOCATED_BYE,
        TrfResult.FORFEIT_LOSS,
        Stage.SWISS,
        ColourRule.FIDE,
    )
    for number, played in enumerate(blocks, start=1):
        byes: list[PlayerId] = []
        board = 0
        for line, game in played:
            opponent = game.opponent
            if opponent is None:
                if game.result is allocated:
                    if byes:
                        raise InvalidTrf(
                            line.number, _column(number) + 7, f"a second U in round {number}"
                        )
                    byes.append(ids[line.player.start_number])
                continue
            # White is home; a forfeit without colours puts the higher-ranked player at home.
            # (Written out, not a call: this runs once a block, 100,000 times in a 1 MB file.)
            start = line.player.start_number
            colour = game.colour
            if colour is not white and (colour is not no_colour or start > opponent):
                continue
            result = _WHITE_RESULT[game.result]
            if game.result is forfeit_loss:
                other = _block(players[opponent], number)
                if other is not None and other.result is forfeit_loss:
                    result = _DOUBLE_FORFEIT
            board += 1
            matches.append(
                Match(
                    len(matches) + 1,
                    swiss,
                    RoundNumber(number),
                    None,
                    board,
                    ids[start],
                    ids[opponent],
                    fide,
                    result,
                )
            )
        rounds.append(SwissRound(RoundNumber(number), tuple(byes), (), ((None, IMPORTED_PATH),)))
    return rounds, matches


# -- settings ---------------------------------------------------------------------------------


def _initial_colour(document: TrfDocument, lines: Sequence[_Line]) -> InitialColour | None:
    """``152``/``XXC``; else the colour of the highest-ranked player with a game in round 1
    (TRF-2026, tag 152); ``None`` (drawn from the seed) before round 1."""
    given = document.initial_colour
    if given is None:
        given = next(
            (
                game.colour
                for line in lines
                if (game := _block(line.player, 1)) is not None
                and game.opponent is not None
                and game.colour is not TrfColour.NONE
            ),
            None,
        )
    if given is None:
        return None
    return InitialColour.WHITE if given is TrfColour.WHITE else InitialColour.BLACK


def _points_table(document: TrfDocument) -> PointsTable:
    """``162``: ``W``in, ``D``raw, ``L``oss, ``P`` (the PAB) in points, each code then its
    points; ``A`` (absence) must be worth nothing; a code left out keeps chess's value."""
    line = document.line_of("162")
    value = document.tag("162")
    if line is None or value is None:
        return CHESS_TABLE
    table = {"W": CHESS_TABLE.win, "D": CHESS_TABLE.draw, "L": CHESS_TABLE.loss}
    bye: Score | None = None
    for match in _SCORE.finditer(value):
        code, points = match.group(1).upper(), match.group(2)
        column = _VALUE_COLUMN + match.start()
        whole, _, half = points.partition(".")
        score = Score(int(whole) * 2 + (1 if half == "5" else 0))
        if score > _MAX_POINTS:
            raise InvalidTrf(line, column, "a result is worth at most 100 points")
        if code in table:
            table[code] = score
        elif code == "P":
            bye = score
        elif code == "A" and score != 0:
            raise InvalidTrf(line, column, "an absence (A) scores nothing here")
        elif code not in ("A", "X"):
            raise InvalidTrf(line, column, f"unknown result code {code!r}: W, D, L, A, P, X")
    win = table["W"]
    return PointsTable(win=win, draw=table["D"], loss=table["L"], bye=win if bye is None else bye)


# -- bytes -------------------------------------------------------------------------------------

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")


def decode_trf(body: bytes) -> str:
    """A TRF's bytes as text: UTF-8 (ASCII is UTF-8), a leading byte order mark dropped. Bytes
    that are not UTF-8 refuse with ``InvalidTrf`` at their line and column."""
    try:
        return body.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as bad:
        lines = _LINE_BREAK.split(body[: bad.start])
        column = len(lines[-1].decode("utf-8")) + 1
        raise InvalidTrf(len(lines), column, "the file is not UTF-8 text") from None
