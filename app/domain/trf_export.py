"""A tournament written as a Tournament Report File (``GET /v1/tournaments/{id}/export.trf``).

The TRF (FIDE Handbook C.04 Annex 2, TRF-2026) is what pairing programs and arbiters read.
``export_trf`` maps a ``Tournament`` onto a ``TrfDocument`` (``app.domain.trf`` writes it):

- tags ``012`` (name), ``092`` (the pairing system), ``142`` (the Swiss rounds of the format in
  force) and ``152`` (the initial colour: ``dutch``'s, chosen or drawn; for the other systems
  the colour of the highest-ranked player with a game in round 1, as TRF-2026 reads it when
  the tag is absent); ``162`` (the scoring) only when the points table is not chess's 1, ½, 0
  with a pairing-allocated bye worth a win;
- one ``001`` record per player in starting-rank order: start number, title, name, rating,
  FIDE number, points and rank (the final place once decided, else the standings rank), both
  as of the rounds written;
- one block per Swiss round whose results are all recorded: the opponent, the colour (home is
  White) and the result (``1 = 0``, a forfeit ``+``/``-``, a double forfeit ``-`` against
  ``-``, the pairing-allocated bye ``0000 - U``), a bye the player asked for (``0000 - H``,
  ``0000 - Z``); a round the player
  was not in (before a late entry, after a withdrawal) is a blank block, which TRF reads as
  not paired (``Z``);
- ``240`` records for the rounds not written yet: the byes asked for them (``H``, ``Z``), and
  ``Z`` for a withdrawn player, who will not be in them;
- ``260`` records (``260 RRR RRR NNNN NNNN …``: first and last round, then players of whom no
  two may be paired) for the hard forbidden pairs, from round 1 to the last: one per explicit
  pair, and with ``avoid_same_team`` ``hard`` one per team of two players or more. TRF has no
  code for a soft pair: those are written the same way on a comment line that other programs
  skip, ``### SVIZZERA-SOFT-260 RRR RRR NNNN NNNN …`` (``SOFT_260``).

A round still being played is left out: TRF has no code for a game without its result. The
final phase is knockout, not Swiss, and is not in the file either (its places are the ranks).
"""

from __future__ import annotations

from collections.abc import Iterable

from app.domain import chess
from app.domain.forbidden import PairKind, TeamRule
from app.domain.matches import Match
from app.domain.pairing.dutch.types import CHESS_POINTS, Colour
from app.domain.tournament import Tournament
from app.domain.trf import (
    TrfColour,
    TrfDocument,
    TrfGame,
    TrfNote,
    TrfPlayer,
    TrfRecord,
    TrfResult,
    TrfTag,
)
from app.domain.types import (
    ByeKind,
    PairingSystem,
    PlayerId,
    PointsTable,
    Score,
    Side,
    Stage,
)

__all__ = ["CHESS_TABLE", "PAIRING_SYSTEM_TAGS", "SOFT_260", "export_trf"]

CHESS_TABLE = CHESS_POINTS
"""TRF-2026's default scoring (tag ``162``): win 1, draw ½, loss 0, the PAB as a win."""
PAIRING_SYSTEM_TAGS = {
    PairingSystem.NEAREST: "SVIZZERA_NEAREST",
    PairingSystem.LIM: "SVIZZERA_LIM",
    PairingSystem.DUTCH: "FIDE_DUTCH_2025",
}
"""The ``092`` type of tournament written for each pairing system."""
NAME_WIDTH = 33
"""Columns 15–47 of a ``001`` record; longer names are cut."""
MAX_FIELD_NUMBER = 9999
"""Ratings past four digits do not fit columns 49–52 and are left blank."""
MAX_POINTS = Score(199)
"""99.5 points: the most that columns 81–84 (``11.5``) hold; more is left blank."""
BYE_RECORD_WIDTH = 16
"""Players named on one ``240`` record at most (the record repeats for more)."""
SOFT_260 = "### SVIZZERA-SOFT-260 "
"""The comment that carries a soft forbidden pair (or team) as a ``260`` record's fields."""


def export_trf(tournament: Tournament, *, name: str) -> TrfDocument:
    """The tournament as a TRF document (TRF-2026 codes, see the module docstring); a DYP
    tournament has no TRF (``NotForDyp``: a TRF game is one player against one)."""
    tournament.refuse_drawn_partners("a TRF")
    start = {pid: p.start_number for pid, p in tournament.players.items()}
    written = _complete_rounds(tournament)
    blocks = _blocks(tournament, start, written)
    as_written = _as_of(tournament, written)
    ranks = _ranks(as_written)
    points = {row.player_id: row.points for row in as_written.standings()}
    players = [
        TrfPlayer(
            start_number=p.start_number,
            name=p.name[:NAME_WIDTH],
            title=p.title.value if p.title is not None else "",
            rating=p.rating if p.rating is not None and p.rating <= MAX_FIELD_NUMBER else None,
            fide_id=p.fide_id,
            points=points[p.id] if points[p.id] <= MAX_POINTS else None,
            rank=ranks[p.id],
            games=_trimmed(blocks[p.id]),
        )
        for p in sorted(tournament.players.values(), key=lambda p: p.start_number)
    ]
    records: list[TrfRecord] = [TrfTag("012", name)]
    records.append(TrfTag("092", PAIRING_SYSTEM_TAGS[tournament.settings.pairing]))
    records.append(TrfTag("142", str(_total(tournament))))
    colour = _initial_colour(tournament, start)
    if colour is not None:
        records.append(TrfTag("152", colour.value.upper()))
    if tournament.settings.points != CHESS_TABLE:
        records.append(TrfTag("162", _scoring(tournament.settings.points)))
    records.extend(players)
    records.extend(_future_absences(tournament, written))
    records.extend(_forbidden(tournament))
    return TrfDocument(tuple(records))


def _complete_rounds(tournament: Tournament) -> int:
    """The Swiss rounds whose results are all recorded (the latest may still be played)."""
    current = tournament.current_round
    if current and any(m.result is None for m in tournament.round_matches(current)):
        return current - 1
    return current


def _as_of(tournament: Tournament, rounds: int) -> Tournament:
    """The tournament after its first ``rounds`` Swiss rounds: the points and ranks of the file
    are those of the rounds it holds."""
    if rounds == tournament.current_round:
        return tournament
    return Tournament(
        tournament.settings,
        tournament.players.values(),
        rounds=tournament.rounds[:rounds],
        matches=[
            m for m in tournament.matches.values() if m.round is not None and m.round <= rounds
        ],
    )


def _blocks(
    tournament: Tournament, start: dict[PlayerId, int], rounds: int
) -> dict[PlayerId, list[TrfGame | None]]:
    blocks: dict[PlayerId, list[TrfGame | None]] = {pid: [None] * rounds for pid in start}
    for swiss_round in tournament.rounds[:rounds]:
        index = swiss_round.number - 1
        for match in tournament.round_matches(swiss_round.number):
            home, away = _games(match, start)
            blocks[match.home][index] = home
            blocks[match.away][index] = away
        for pid in swiss_round.byes:
            blocks[pid][index] = TrfGame(None, TrfColour.NONE, TrfResult.PAIRING_ALLOCATED_BYE)
    for player in tournament.players.values():
        for bye in player.requested_byes:
            if bye.round <= rounds and player.in_round(bye.round):
                blocks[player.id][bye.round - 1] = TrfGame(None, TrfColour.NONE, _BYE[bye.kind])
    return blocks


_BYE = {ByeKind.HALF_POINT: TrfResult.HALF_POINT_BYE, ByeKind.ZERO_POINT: TrfResult.ZERO_POINT_BYE}


_FORFEIT = {True: TrfResult.FORFEIT_LOSS, False: TrfResult.FORFEIT_WIN}
"""A forfeit's code by whether the player was absent (both are, in a double forfeit)."""


def _games(match: Match, start: dict[PlayerId, int]) -> tuple[TrfGame, TrfGame]:
    """The home (White) and away (Black) blocks of a Swiss match with its result."""
    result = match.result
    assert result is not None, "only rounds with every result are written"
    forfeit = result.forfeit
    if forfeit is not None:
        home_code, away_code = (_FORFEIT[forfeit.absent(side)] for side in (Side.HOME, Side.AWAY))
    else:
        winner = result.winning_side
        home_code, away_code = {
            Side.HOME: (TrfResult.WIN, TrfResult.LOSS),
            Side.AWAY: (TrfResult.LOSS, TrfResult.WIN),
            None: (TrfResult.DRAW, TrfResult.DRAW),
        }[winner]
    return (
        TrfGame(start[match.away], TrfColour.WHITE, home_code),
        TrfGame(start[match.home], TrfColour.BLACK, away_code),
    )


def _trimmed(blocks: list[TrfGame | None]) -> tuple[TrfGame | None, ...]:
    """Trailing blank blocks say nothing the record's end does not say."""
    end = len(blocks)
    while end and blocks[end - 1] is None:
        end -= 1
    return tuple(blocks[:end])


def _ranks(tournament: Tournament) -> dict[PlayerId, int]:
    ranking = tournament.final_ranking()
    if ranking is not None:
        return {pid: place for place, pid in enumerate(ranking, start=1)}
    return {row.player_id: row.rank for row in tournament.standings()}


def _initial_colour(tournament: Tournament, start: dict[PlayerId, int]) -> TrfColour | None:
    """``dutch``: the colour drawn before round 1 (C.04.3 Art. 5.1). Else the colour of the
    highest-ranked player with a game in round 1 (home is White), none before round 1."""
    settings = tournament.settings
    if settings.pairing is PairingSystem.DUTCH:
        drawn = chess.initial_colour(settings.initial_colour, settings.seed)
        return TrfColour.WHITE if drawn is Colour.WHITE else TrfColour.BLACK
    first = [m for m in tournament.matches.values() if m.stage is Stage.SWISS and m.round == 1]
    if not first:
        return None
    top = min(first, key=lambda m: min(start[m.home], start[m.away]))
    return TrfColour.WHITE if start[top.home] < start[top.away] else TrfColour.BLACK


def _scoring(table: PointsTable) -> str:
    """A ``162`` value: code at column 6, points at 7–10, the next code 9 columns on."""
    pairs = (("W", table.win), ("D", table.draw), ("L", table.loss), ("P", table.bye))
    return " " + "    ".join(f"{code}{_points(score):>4}" for code, score in pairs)


def _points(score: Score) -> str:
    return f"{score // 2}.{5 if score % 2 else 0}"


def _future_absences(tournament: Tournament, written: int) -> Iterable[TrfTag]:
    """``240`` records for the rounds not written: the byes asked for them, and ``Z`` for a
    withdrawn player after both their withdrawal and the rounds written."""
    absent: dict[tuple[int, str], list[int]] = {}
    for player in tournament.players.values():
        for bye in player.requested_byes:
            if bye.round > written:
                letter = _BYE[bye.kind].value
                absent.setdefault((bye.round, letter), []).append(player.start_number)
        if player.withdrawn_after is None:
            continue
        for number in range(max(written, player.withdrawn_after) + 1, _total(tournament) + 1):
            absent.setdefault((number, "Z"), []).append(player.start_number)
    for (number, letter), starts in sorted(absent.items()):
        starts.sort()
        for at in range(0, len(starts), BYE_RECORD_WIDTH):
            chunk = starts[at : at + BYE_RECORD_WIDTH]
            yield TrfTag("240", f"{letter} {number:03d} " + " ".join(f"{n:>4}" for n in chunk))


def _forbidden(tournament: Tournament) -> Iterable[TrfTag | TrfNote]:
    """``260`` records for the hard pairs and teams, comments for the soft ones (module
    docstring); explicit pairs by id, then teams by name."""
    start = {pid: p.start_number for pid, p in tournament.players.items()}
    rounds = f"{1:>3} {_total(tournament):>3}"
    groups: list[tuple[PairKind, list[int]]] = [
        (pair.kind, sorted(start[pid] for pid in pair.players))
        for _, pair in sorted(tournament.forbidden_pairs.items())
    ]
    rule = tournament.settings.avoid_same_team
    if rule is not TeamRule.OFF:
        teams: dict[str, list[int]] = {}
        for player in tournament.players.values():
            if player.team is not None:
                teams.setdefault(player.team, []).append(player.start_number)
        kind = PairKind.HARD if rule is TeamRule.HARD else PairKind.SOFT
        groups.extend((kind, sorted(members)) for _, members in sorted(teams.items()))
    for kind, starts in groups:
        if len(starts) < 2:
            continue
        fields = rounds + " " + " ".join(f"{n:>4}" for n in starts)
        yield TrfTag("260", fields) if kind is PairKind.HARD else TrfNote(SOFT_260 + fields)


def _total(tournament: Tournament) -> int:
    return tournament.format.swiss_rounds
