"""Who is paired in a round (``docs/rules.md``, "Absences"): the players in the tournament for
the round, less those who asked for a bye in it and, in round 1 of a tournament that pairs
checked-in players only, those not checked in. Every system asks this one rule."""

from __future__ import annotations

from dataclasses import replace

from app.domain.types import Player, RoundNumber

__all__ = ["checked_in", "plays_round"]


def plays_round(player: Player, number: RoundNumber, *, checked_in_only: bool) -> bool:
    """Whether ``player`` is paired in round ``number``: in the tournament for it (entered by
    then, not withdrawn before it), without a bye asked for it (C.04.1 Art. 3), and, when the
    tournament pairs checked-in players only, checked in if it is round 1.

    A player not checked in when round 1 is paired is absent from round 1 only, as a late entry
    for round 2 would be: no opponent, no bye, no points for it; they are paired from round 2 on
    unless withdrawn (or given a bye) before it.
    """
    if not player.in_round(number) or player.requested_bye(number) is not None:
        return False
    return number > 1 or not checked_in_only or player.checked_in


def checked_in(player: Player, value: bool) -> Player:
    """``player`` on (``True``) or off the check-in list of round 1."""
    return replace(player, checked_in=value)
