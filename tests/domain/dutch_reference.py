"""The shared Dutch reference tournaments (``tests/data/dutch``) as rounds for the engine.

Each file is a whole tournament paired round by round by bbpPairings v6.0.0. ``round_input``
gives the engine's input for round *r* (rounds 1..r−1 as history, the players with a game or the
PAB in round *r* present) and ``round_result`` what the file says round *r* was.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from app.domain.pairing.dutch.types import (
    Board,
    Colour,
    DutchInput,
    DutchPlayer,
    Outcome,
    RoundRecord,
)
from app.domain.trf import TrfColour, TrfDocument, TrfGame, TrfResult, read_trf
from app.domain.types import PlayerId, RoundNumber

DATA = Path(__file__).parent.parent / "data" / "dutch"
REGRESSIONS = DATA / "regressions"
FILES = sorted(path.name for path in DATA.glob("dutch_p*.trf"))
BENCHMARK_FILE = "dutch_p1000_r09_s1.trf"
"""The largest file, which the benchmark pairs too; it holds the set's one double forfeit."""
GOLDEN_FILES = FILES
GOLDEN_PARAMS = [
    pytest.param(name, marks=pytest.mark.slow) if name == BENCHMARK_FILE else name
    for name in GOLDEN_FILES
]
"""``GOLDEN_FILES`` for ``parametrize``: the 1,000-player file is marked ``slow`` (it runs in
the suite; ``-m "not slow"`` leaves it out of a quick run)."""

_GAME = {
    TrfResult.WIN: Outcome.WIN,
    TrfResult.UNRATED_WIN: Outcome.WIN,
    TrfResult.DRAW: Outcome.DRAW,
    TrfResult.UNRATED_DRAW: Outcome.DRAW,
    TrfResult.LOSS: Outcome.LOSS,
    TrfResult.UNRATED_LOSS: Outcome.LOSS,
    TrfResult.FORFEIT_WIN: Outcome.FORFEIT_WIN,
    TrfResult.FORFEIT_LOSS: Outcome.FORFEIT_LOSS,
}
_NO_GAME = {
    TrfResult.PAIRING_ALLOCATED_BYE: Outcome.PAIRING_BYE,
    TrfResult.HALF_POINT_BYE: Outcome.HALF_POINT_BYE,
    TrfResult.DRAW: Outcome.HALF_POINT_BYE,
    TrfResult.FULL_POINT_BYE: Outcome.FULL_POINT_BYE,
    TrfResult.FORFEIT_WIN: Outcome.FULL_POINT_BYE,
    TrfResult.ZERO_POINT_BYE: Outcome.ZERO_POINT_BYE,
}


@cache
def document(name: str) -> TrfDocument:
    return read_trf((DATA / name).read_text())


def rounds(name: str) -> int:
    return total_rounds(document(name))


def total_rounds(doc: TrfDocument) -> int:
    return doc.total_rounds or doc.rounds_played


def _game(record_games: tuple[TrfGame | None, ...], index: int) -> TrfGame | None:
    return record_games[index] if index < len(record_games) else None


def _record(game: TrfGame | None) -> RoundRecord:
    if game is None:
        return RoundRecord(Outcome.ABSENT)
    if game.opponent is not None:
        colour = None if game.colour is TrfColour.NONE else Colour(_COLOUR[game.colour])
        return RoundRecord(_GAME[game.result], PlayerId(game.opponent), colour)
    return RoundRecord(_NO_GAME.get(game.result, Outcome.ABSENT))


_COLOUR = {TrfColour.WHITE: "white", TrfColour.BLACK: "black"}


def _paired(game: TrfGame | None) -> bool:
    return game is not None and (
        game.opponent is not None or game.result is TrfResult.PAIRING_ALLOCATED_BYE
    )


def initial_colour(doc: TrfDocument) -> Colour:
    """Round 1's colours tell it: the higher-ranked player of the first board with a game got
    the initial colour if their place among the paired players is odd (1st, 3rd…)."""
    given = doc.initial_colour
    if given is not None:
        return Colour(_COLOUR[given])
    paired = sorted(p.start_number for p in doc.players if _paired(_game(p.games, 0)))
    place = {number: index for index, number in enumerate(paired)}
    by_number = {p.start_number: p for p in doc.players}
    for number in paired:
        game = _game(by_number[number].games, 0)
        if game is not None and game.opponent is not None and game.colour is not TrfColour.NONE:
            higher = min(number, game.opponent)
            higher_game = _game(by_number[higher].games, 0)
            assert higher_game is not None
            colour = Colour(_COLOUR[higher_game.colour])
            return colour if place[higher] % 2 == 0 else colour.other
    return Colour.WHITE


def round_input(name: str, number: int) -> DutchInput:
    return document_round_input(document(name), number)


def document_round_input(doc: TrfDocument, number: int) -> DutchInput:
    """The engine's input for round ``number`` of any tournament written as a TRF."""
    players = tuple(
        DutchPlayer(
            PlayerId(p.start_number),
            p.start_number,
            tuple(_record(_game(p.games, i)) for i in range(number - 1)),
            present=_paired(_game(p.games, number - 1)),
        )
        for p in sorted(doc.players, key=lambda p: p.start_number)
    )
    return DutchInput(players, RoundNumber(number), total_rounds(doc), initial_colour(doc))


def cut_round_input(doc: TrfDocument, number: int) -> DutchInput:
    """Round ``number`` of a tournament cut just before it (``tests/data/dutch/regressions``):
    a player is present unless the file already has an entry for that round (a bye asked for,
    or an absence)."""
    whole = document_round_input(doc, number)
    entered = {
        PlayerId(p.start_number) for p in doc.players if _game(p.games, number - 1) is not None
    }
    return replace(
        whole,
        players=tuple(replace(p, present=p.id not in entered) for p in whole.players),
    )


def round_result(name: str, number: int) -> tuple[frozenset[Board], PlayerId | None]:
    return document_round_result(document(name), number)


def document_round_result(
    doc: TrfDocument, number: int
) -> tuple[frozenset[Board], PlayerId | None]:
    """What round ``number`` of a tournament written as a TRF was: its boards and its PAB."""
    boards = set()
    bye = None
    for p in doc.players:
        game = _game(p.games, number - 1)
        if game is None:
            continue
        if game.opponent is not None and game.colour is TrfColour.WHITE:
            boards.add(Board(PlayerId(p.start_number), PlayerId(game.opponent)))
        elif game.opponent is None and game.result is TrfResult.PAIRING_ALLOCATED_BYE:
            bye = PlayerId(p.start_number)
    return frozenset(boards), bye
