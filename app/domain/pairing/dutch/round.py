"""The entry point of ``dutch``: a tournament's round by the FIDE (Dutch) engine.

The engine knows rounds, records and pairing numbers only (``types``); this module turns the
tournament's players, matches and rounds into that input (``dutch_input``) and the engine's
boards back into matches (``dutch_round``): home is White, away is Black.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from app.domain.attendance import plays_round
from app.domain.chess import initial_colour
from app.domain.colours import ColourRule
from app.domain.deadline import Deadline
from app.domain.errors import PairingImpossible, RoundIncomplete, TooFewPlayers
from app.domain.matches import GeneratedRound, Match, MatchId, SwissRound
from app.domain.pairing.dutch.engine import pair_dutch
from app.domain.pairing.dutch.types import (
    Colour,
    DutchInput,
    DutchPlayer,
    Outcome,
    RoundRecord,
)
from app.domain.pairing.interface import Constraints, RoundRequest
from app.domain.types import (
    ByeKind,
    PairingSystem,
    Player,
    PlayerId,
    PointsTable,
    RoundNumber,
    Side,
    Stage,
)

__all__ = ["dutch_input", "dutch_round", "pair_round"]


def pair_round(
    request: RoundRequest, constraints: Constraints, *, deadline: Deadline
) -> GeneratedRound:
    """The round ``request`` asks for, by the FIDE (Dutch) System, the hard forbidden pairs of
    ``constraints`` treated as met by C1 (as TRF-2026's ``260`` records); a round the absolute
    criteria cannot pair raises ``PairingImpossible`` naming the players who cannot be paired
    and the hard pairs among them (all of them when none is)."""
    settings = request.settings
    hard = constraints.hard
    round_input = dutch_input(
        request.players.values(),
        request.matches,
        request.rounds,
        total_rounds=request.swiss_rounds,
        initial=initial_colour(settings.initial_colour, settings.seed),
        points=settings.points,
        forbidden=tuple(c.players for c in hard),
        checked_in_only=settings.pair_checked_in_only,
    )
    try:
        return dutch_round(round_input, next_id=request.next_id, deadline=deadline)
    except PairingImpossible as refused:
        names = {p.id: p.name for p in request.players.values()}
        stuck = set(refused.players)
        involved = [c for c in hard if stuck & set(c.players)] or list(hard)
        with_pairs = PairingImpossible(refused.detail, players=refused.players, forbidden=involved)
        raise with_pairs.named(names) from refused


_BYE_OUTCOME = {
    ByeKind.HALF_POINT: Outcome.HALF_POINT_BYE,
    ByeKind.ZERO_POINT: Outcome.ZERO_POINT_BYE,
}


def dutch_input(
    players: Iterable[Player],
    matches: Iterable[Match],
    rounds: Sequence[SwissRound],
    *,
    total_rounds: int,
    initial: Colour,
    points: PointsTable,
    forbidden: tuple[tuple[PlayerId, PlayerId], ...] = (),
    checked_in_only: bool = False,
) -> DutchInput:
    """The engine's input for the round after ``rounds``: every player with their pairing
    number (the start number) and one record per earlier round.

    A match is a game (home White, away Black) or, with a forfeit, a forfeit won or lost (lost
    by both in a double forfeit: no meeting, no colour, C.04.2 Art. 3); the round's ``byes``
    are the PAB; a round the player asked to skip is the bye they asked for; any other round
    (before a late entry, after a withdrawal, round 1 for a player not checked in) is
    ``ABSENT``. Present are the players ``attendance.plays_round`` pairs: in the tournament for
    the round (entered, not withdrawn), who did not ask to skip it, checked in for round 1 when
    ``checked_in_only``.
    ``forbidden`` are the hard forbidden pairs (C1 treats them as met).
    """
    number = RoundNumber(len(rounds) + 1)
    games: dict[tuple[PlayerId, int], RoundRecord] = {}
    for match in matches:
        if match.stage is not Stage.SWISS or match.round is None:
            continue
        white, black = _records(match)
        games[match.home, match.round] = white
        games[match.away, match.round] = black
    pab = {(pid, r.number) for r in rounds for pid in r.byes}
    dutch_players = []
    for player in players:
        history = tuple(_record(player, RoundNumber(r), games, pab) for r in range(1, number))
        present = plays_round(player, number, checked_in_only=checked_in_only)
        dutch_players.append(DutchPlayer(player.id, player.start_number, history, present))
    dutch_players.sort(key=lambda p: p.number)
    return DutchInput(tuple(dutch_players), number, total_rounds, initial, points, forbidden)


def dutch_round(round_input: DutchInput, *, next_id: MatchId, deadline: Deadline) -> GeneratedRound:
    """The round ``round_input`` asks for, by the FIDE (Dutch) System: one field, White at
    home, the boards in the engine's order (board 1 first), colour rule ``fide``, the PAB as the
    round's bye, path ``["dutch"]``, and the engine's explanation (issue 22: placement *k* is
    board *k*); match ids from ``next_id``. Fewer than two present players are
    ``TooFewPlayers``; past ``deadline`` the engine raises ``PairingTimeout``."""
    if sum(1 for p in round_input.players if p.present) < 2:
        raise TooFewPlayers("fewer than 2 active players are left to pair")
    pairing = pair_dutch(round_input, deadline=deadline)
    number = round_input.round_number
    new_matches = tuple(
        Match(next_id + i, Stage.SWISS, number, None, i + 1, b.white, b.black, ColourRule.FIDE)
        for i, b in enumerate(pairing.boards)
    )
    byes = (pairing.bye,) if pairing.bye is not None else ()
    paths = ((None, (PairingSystem.DUTCH.value,)),)
    swiss_round = SwissRound(number, byes, (), paths, pairing.explanation)
    return GeneratedRound(swiss_round, new_matches)


def _record(
    player: Player,
    number: RoundNumber,
    games: Mapping[tuple[PlayerId, int], RoundRecord],
    pab: set[tuple[PlayerId, RoundNumber]],
) -> RoundRecord:
    game = games.get((player.id, number))
    if game is not None:
        return game
    if (player.id, number) in pab:
        return RoundRecord(Outcome.PAIRING_BYE)
    requested = player.requested_bye(number)
    if requested is not None and player.in_round(number):
        return RoundRecord(_BYE_OUTCOME[requested])
    return RoundRecord(Outcome.ABSENT)


def _records(match: Match) -> tuple[RoundRecord, RoundRecord]:
    """White's (home's) and Black's (away's) record of a finished match."""
    result = match.result
    if result is None:
        raise RoundIncomplete(f"match {match.id} has no result")
    winner = result.winning_side
    forfeit = result.forfeit
    if forfeit is not None:
        home = Outcome.FORFEIT_LOSS if forfeit.absent(Side.HOME) else Outcome.FORFEIT_WIN
        away = Outcome.FORFEIT_LOSS if forfeit.absent(Side.AWAY) else Outcome.FORFEIT_WIN
    elif winner is None:
        home = away = Outcome.DRAW
    else:
        home = Outcome.WIN if winner is Side.HOME else Outcome.LOSS
        away = Outcome.LOSS if winner is Side.HOME else Outcome.WIN
    return (
        RoundRecord(home, match.away, Colour.WHITE),
        RoundRecord(away, match.home, Colour.BLACK),
    )
