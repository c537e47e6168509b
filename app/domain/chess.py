"""A chess tournament around the FIDE (Dutch) engine: pairing numbers, the initial colour,
requested byes, and the tournament's history as the engine's input (``docs/rules.md``,
"Tournaments paired `dutch`").

The engine (``app.domain.pairing.dutch``) knows rounds, records and pairing numbers only; this
module turns the tournament's players, matches and rounds into that input and the engine's
boards back into matches: home is White, away is Black.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from app.domain.colours import ColourRule
from app.domain.deadline import Deadline
from app.domain.errors import RoundIncomplete, TooFewPlayers
from app.domain.groups import name_key
from app.domain.matches import GeneratedRound, Match, MatchId, SwissRound
from app.domain.pairing.dutch import pair_dutch
from app.domain.pairing.dutch_types import (
    Colour,
    DutchInput,
    DutchPlayer,
    Outcome,
    RoundRecord,
)
from app.domain.types import (
    ByeKind,
    FideTitle,
    InitialColour,
    PairingSystem,
    Player,
    PlayerId,
    PointsTable,
    RoundNumber,
    Side,
    Stage,
)

__all__ = [
    "dutch_input",
    "dutch_round",
    "initial_colour",
    "pairing_key",
    "place_late_entry",
    "sure_rounds",
]

_TITLE_RANK = {title: rank for rank, title in enumerate(FideTitle)}


def pairing_key(player: Player) -> tuple[int, int, str, str, int]:
    """C.04.2 Art. 2: the initial order is by rating (highest first, unrated last), then FIDE
    title (GM, IM, WGM, FM, WIM, CM, WFM, WCM, untitled), then name (alphabetical, any case);
    the player id only makes the key total (two players never share a name)."""
    title = len(_TITLE_RANK) if player.title is None else _TITLE_RANK[player.title]
    return (-(player.rating or 0), title, name_key(player.name), player.name, player.id)


def place_late_entry(players: Mapping[PlayerId, Player], new: Player) -> dict[PlayerId, Player]:
    """C.04.2 Art. 2 for a late entry: the new player takes the pairing number the rule gives
    them among the players already numbered, whose relative order stays as it is (numbers at
    and after the new one move up by one)."""
    ordered = sorted(players.values(), key=lambda p: p.start_number)
    key = pairing_key(new)
    place = next(
        (p.start_number for p in ordered if key < pairing_key(p)),
        max((p.start_number for p in ordered), default=0) + 1,
    )
    placed = {
        pid: p if p.start_number < place else _renumbered(p, p.start_number + 1)
        for pid, p in players.items()
    }
    placed[new.id] = _renumbered(new, place)
    return placed


def _renumbered(player: Player, number: int) -> Player:
    return replace(player, start_number=number)


def initial_colour(setting: InitialColour | None, seed: int) -> Colour:
    """C.04.3 Art. 5.1: the colour drawn before round 1. ``white`` or ``black`` as chosen;
    ``draw`` (the default) by the tournament's seed, ``random.Random("<seed>/initial-colour")``."""
    if setting is InitialColour.WHITE:
        return Colour.WHITE
    if setting is InitialColour.BLACK:
        return Colour.BLACK
    lot = random.Random(f"{seed}/initial-colour").random()
    return Colour.WHITE if lot < 0.5 else Colour.BLACK


_BYE_OUTCOME = {
    ByeKind.HALF_POINT: Outcome.HALF_POINT_BYE,
    ByeKind.ZERO_POINT: Outcome.ZERO_POINT_BYE,
}


def sure_rounds(players: int) -> int:
    """How many rounds the absolute criteria can always pair for ``players`` who all play
    every round, whatever the results: ⌈players / 2⌉ (``docs/rules.md``, "How many rounds").

    Before round r each player has met at most r − 1 others, so at least players − r are still
    possible opponents (C1). With an odd field the PAB counts as one more player, whom everybody
    who has not had it may meet (C2): then every player, and the PAB, has at least
    players − r + 1 possible opponents. Up to r = ⌈players / 2⌉ that is at least half of the
    (even) number of vertices, so by Dirac's theorem the graph of possible meetings has a
    Hamiltonian cycle, and every other edge of it is a pairing of the round. It is a bound, not
    a promise: C3 (two players with the same absolute colour preference do not meet), absences
    and forfeit wins (no PAB after one) can stop an earlier round, and most fields pair well
    past it (a round robin's last rounds are where the pairing stops).
    """
    return (players + 1) // 2


def dutch_input(
    players: Iterable[Player],
    matches: Iterable[Match],
    rounds: Sequence[SwissRound],
    *,
    total_rounds: int,
    initial: Colour,
    points: PointsTable,
) -> DutchInput:
    """The engine's input for the round after ``rounds``: every player with their pairing
    number (the start number) and one record per earlier round.

    A match is a game (home White, away Black) or, with a forfeit, a forfeit won or lost (lost
    by both in a double forfeit: no meeting, no colour, C.04.2 Art. 3); the round's ``byes``
    are the PAB; a round the player asked to skip is the bye they asked for; any other round
    (before a late entry, after a withdrawal) is ``ABSENT``. Present are the players in the
    tournament for the round (entered, not withdrawn) who did not ask to skip it.
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
        present = player.in_round(number) and player.requested_bye(number) is None
        dutch_players.append(DutchPlayer(player.id, player.start_number, history, present))
    dutch_players.sort(key=lambda p: p.number)
    return DutchInput(tuple(dutch_players), number, total_rounds, initial, points)


def dutch_round(round_input: DutchInput, *, next_id: MatchId, deadline: Deadline) -> GeneratedRound:
    """The round ``round_input`` asks for, by the FIDE (Dutch) System: one field, White at
    home, the boards in the engine's order (board 1 first), colour rule ``fide``, the PAB as the
    round's bye, path ``["dutch"]``; match ids from ``next_id``. Fewer than two present players
    are ``TooFewPlayers``; past ``deadline`` the engine raises ``PairingTimeout``."""
    if sum(1 for p in round_input.players if p.present) < 2:
        raise TooFewPlayers("fewer than 2 active players are left to pair")
    pairing = pair_dutch(round_input, deadline=deadline)
    number = round_input.round_number
    new_matches = tuple(
        Match(next_id + i, Stage.SWISS, number, None, i + 1, b.white, b.black, ColourRule.FIDE)
        for i, b in enumerate(pairing.boards)
    )
    byes = (pairing.bye,) if pairing.bye is not None else ()
    swiss_round = SwissRound(number, byes, (), ((None, (PairingSystem.DUTCH.value,)),))
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
