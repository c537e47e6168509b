"""A chess tournament: pairing numbers (C.04.2 Art. 2, late entries included), the initial
colour, and how many rounds the Dutch rules are sure to pair (``docs/rules.md``,
"Tournaments paired `dutch`"). The round itself: ``app.domain.pairing.dutch.round``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace

from app.domain.groups import name_key
from app.domain.pairing.dutch.types import Colour
from app.domain.types import FideTitle, InitialColour, Player, PlayerId

__all__ = [
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
