"""Colour allocation of a pair (C.04.3 Art. 5), once the pairs are fixed.

Rules in order, the first that decides wins:

- 5.2.1 both players get their preference (when the preferences differ, or one has none);
- 5.2.2 the stronger preference is granted (absolute beats strong beats mild; between two
  absolute preferences, the wider colour difference);
- 5.2.3 alternate from the most recent round in which one had White and the other Black,
  comparing played games only (C.04.2 Art. 3: unplayed rounds go to the start of the history);
- 5.2.4 the higher-ranked player gets their preference;
- 5.2.5 the higher-ranked player gets the initial colour if their pairing number is odd, the
  other colour if it is even (counted among the players taking part in the pairing).
"""

from __future__ import annotations

from app.domain.pairing.dutch.state import PlayerState, Strength
from app.domain.pairing.dutch.types import Colour

__all__ = ["colour_of_higher", "colour_rule"]


def colour_of_higher(higher: PlayerState, lower: PlayerState, initial: Colour) -> Colour:
    """The colour of ``higher`` (ranked above ``lower``: higher score, or equal score and lower
    pairing number) against ``lower``."""
    return colour_rule(higher, lower, initial)[0]


def colour_rule(higher: PlayerState, lower: PlayerState, initial: Colour) -> tuple[Colour, str]:
    """The colour of ``higher`` against ``lower`` and the rule of Art. 5.2 that gave it
    (``"5.2.1"`` … ``"5.2.5"``)."""
    decided = _by_preferences(higher, lower)
    if decided is not None:
        return decided
    if higher.preference is not None:
        return higher.preference, "5.2.4"
    return (initial if higher.rank % 2 == 0 else initial.other), "5.2.5"


def _by_preferences(p: PlayerState, o: PlayerState) -> tuple[Colour, str] | None:
    """Rules 5.2.1–5.2.3 for ``p`` against ``o`` (``p``'s colour and the rule); ``None`` when
    they leave it open."""
    if p.preference is None or o.preference is None or p.preference is not o.preference:
        if p.preference is not None:
            return p.preference, "5.2.1"
        return (o.preference.other, "5.2.1") if o.preference is not None else None
    if p.absolute and (p.imbalance > o.imbalance or not o.absolute):
        return p.preference, "5.2.2"
    if o.absolute and (o.imbalance > p.imbalance or not p.absolute):
        return o.preference.other, "5.2.2"
    if p.strength is Strength.STRONG and o.strength is not Strength.STRONG:
        return p.preference, "5.2.2"
    if o.strength is Strength.STRONG and p.strength is not Strength.STRONG:
        return o.preference.other, "5.2.2"
    for mine, theirs in zip(reversed(p.colours), reversed(o.colours), strict=False):
        if mine is not theirs:
            return theirs, "5.2.3"
    return None
