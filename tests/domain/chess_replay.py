"""The shared Dutch reference tournaments played through ``Tournament`` (settings, players,
requested byes, results), so a test can compare each generated round with the file's.

A file's player *n* enters with a rating that gives them pairing number *n*; a round the file
shows them unpaired (``H``, ``Z``, or no entry) is a bye they asked for before the round was
paired (half-point for ``H``, zero-point otherwise: the engine sees an absence and a zero-point
bye alike). Results are written home = White.
"""

from __future__ import annotations

from collections.abc import Iterator

from app.domain.matches import SwissRound
from app.domain.pairing.dutch.types import CHESS_POINTS, Board
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.trf import TrfGame, TrfResult
from app.domain.types import (
    ByeKind,
    Forfeit,
    InitialColour,
    PairingSystem,
    PlayerId,
    Result,
    RoundNumber,
)
from tests.domain.dutch_reference import document, initial_colour, rounds

RATING_TOP = 5000


def new_tournament(name: str) -> Tournament:
    doc = document(name)
    settings = Settings(
        seed=1,
        pairing=PairingSystem.DUTCH,
        points=CHESS_POINTS,
        swiss_rounds=rounds(name),
        initial_colour=InitialColour(initial_colour(doc).value),
    )
    players = sorted(doc.players, key=lambda p: p.start_number)
    return Tournament.create(
        settings,
        [NewPlayer(f"P{p.start_number:04d}", RATING_TOP - p.start_number) for p in players],
    )


def _game(name: str, number: int, round_: int) -> TrfGame | None:
    games = document(name).players[number - 1].games
    return games[round_ - 1] if round_ - 1 < len(games) else None


def replay(name: str) -> Iterator[tuple[SwissRound, frozenset[Board]]]:
    """Each round as ``Tournament`` generates it (its round and its boards, home as White),
    after the byes the file shows were asked for; the file's results are then recorded."""
    tournament = new_tournament(name)
    by_number = {p.start_number: p for p in document(name).players}
    assert all(tournament.players[PlayerId(n)].start_number == n for n in by_number)
    for number in range(1, rounds(name) + 1):
        for n in by_number:
            game = _game(name, n, number)
            if game is None or (
                game.opponent is None and game.result is not TrfResult.PAIRING_ALLOCATED_BYE
            ):
                half = game is not None and game.result is TrfResult.HALF_POINT_BYE
                kind = ByeKind.HALF_POINT if half else ByeKind.ZERO_POINT
                tournament.request_bye(PlayerId(n), RoundNumber(number), kind)
        swiss_round = tournament.generate_round()
        matches = tournament.round_matches(number)
        yield swiss_round, frozenset(Board(m.home, m.away) for m in matches)
        for match in matches:
            white = _game(name, match.home, number)
            black = _game(name, match.away, number)
            assert white is not None and white.opponent == match.away and black is not None
            tournament.record_result(match.id, _result(white.result, black.result))


def _result(white: TrfResult, black: TrfResult) -> Result:
    if white is black is TrfResult.FORFEIT_LOSS:
        return Result(0, 0, forfeit=Forfeit.BOTH)
    if white is TrfResult.FORFEIT_WIN:
        return Result(0, 0, forfeit=Forfeit.AWAY)
    if white is TrfResult.FORFEIT_LOSS:
        return Result(0, 0, forfeit=Forfeit.HOME)
    if white in (TrfResult.WIN, TrfResult.UNRATED_WIN):
        return Result(1, 0)
    if white in (TrfResult.LOSS, TrfResult.UNRATED_LOSS):
        return Result(0, 1)
    return Result(0, 0)
