"""Who starts: home and away for the pairs of a round (``colours.md``).

Colours are given after the pairs are fixed and never change who plays whom. Each seating
records the rule that decided it, so a colour can be explained to a player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import zip_longest

from app.domain.errors import UnknownPlayer
from app.domain.types import Pair, PlayerId, Role

__all__ = ["ColourRule", "Seating", "assign_colours", "seat_by_rank"]

History = Sequence[Role | None]
"""One entry per earlier Swiss round (index 0 is round 1); ``None`` for no role."""


class ColourRule(StrEnum):
    """The rule of ``colours.md`` that decided a seating, in the order they are tried."""

    FEWER_HOME = "fewer_home"
    MORE_AWAY = "more_away"
    ALTERNATION = "alternation"
    POSITION = "position"
    LOT = "lot"
    RANK = "rank"
    """Final phase: the better Swiss rank is home; DYP: the team of the better placed of the
    four players."""
    FIDE = "fide"
    """Pairing ``dutch``: home is White (by C.04.3 Art. 5, or as the arbiter set a board by
    hand)."""
    MANUAL = "manual"
    """``nearest``/``lim``: the arbiter seated a board by hand otherwise than the rules above
    would."""


@dataclass(frozen=True, slots=True)
class Seating:
    home: PlayerId
    away: PlayerId
    rule: ColourRule


def assign_colours(
    pairs: Sequence[Pair],
    *,
    pairing_order: Sequence[PlayerId],
    roles: Mapping[PlayerId, History],
    lot_home_to_better: bool,
) -> tuple[Seating, ...]:
    """Seat every pair of a Swiss round, in board order, by the rules of ``colours.md``.

    1. The one who has been home fewer times is home. 2. The one who has been away more times
    is home. 3. Alternation: at the most recent round where the two had different roles (a role
    against none counts as different), if one was home the other is home now, otherwise the one
    away then is home now. 4. Identical histories: if the better-ranked is in the top half of
    ``pairing_order`` (positions 1..n//2) they take the role opposite to their last one,
    otherwise the worse-ranked does; with no role at all, the lot: board ``i`` (0-based) is home
    to the better-ranked iff ``lot_home_to_better == (i % 2 == 0)``.

    Raises ``UnknownPlayer`` when rule 4 needs the position of a player not in
    ``pairing_order``.
    """
    position = {player_id: i for i, player_id in enumerate(pairing_order, start=1)}
    top_half = len(pairing_order) // 2
    return tuple(
        _seat(
            pair,
            roles.get(pair.higher, ()),
            roles.get(pair.lower, ()),
            board=board,
            position=position,
            top_half=top_half,
            lot_home_to_better=lot_home_to_better,
        )
        for board, pair in enumerate(pairs)
    )


def seat_by_rank(pair: Pair) -> Seating:
    """Final-phase matches: the better Swiss rank is home."""
    return Seating(home=pair.higher, away=pair.lower, rule=ColourRule.RANK)


def _seat(
    pair: Pair,
    higher_roles: History,
    lower_roles: History,
    *,
    board: int,
    position: Mapping[PlayerId, int],
    top_half: int,
    lot_home_to_better: bool,
) -> Seating:
    higher, lower = pair.higher, pair.lower

    def higher_home(rule: ColourRule, is_home: bool) -> Seating:
        if is_home:
            return Seating(home=higher, away=lower, rule=rule)
        return Seating(home=lower, away=higher, rule=rule)

    higher_home_count = higher_roles.count(Role.HOME)
    lower_home_count = lower_roles.count(Role.HOME)
    if higher_home_count != lower_home_count:
        return higher_home(ColourRule.FEWER_HOME, higher_home_count < lower_home_count)

    higher_away_count = higher_roles.count(Role.AWAY)
    lower_away_count = lower_roles.count(Role.AWAY)
    if higher_away_count != lower_away_count:
        return higher_home(ColourRule.MORE_AWAY, higher_away_count > lower_away_count)

    # Histories of unequal length (a missing key, a shorter list) are padded with "no role".
    rounds = list(zip_longest(higher_roles, lower_roles))
    for higher_role, lower_role in reversed(rounds):
        if higher_role == lower_role:
            continue
        if Role.HOME in (higher_role, lower_role):
            return higher_home(ColourRule.ALTERNATION, lower_role is Role.HOME)
        return higher_home(ColourRule.ALTERNATION, higher_role is Role.AWAY)

    last_role = next((role for role, _ in reversed(rounds) if role is not None), None)
    if last_role is None:
        return higher_home(ColourRule.LOT, lot_home_to_better == (board % 2 == 0))
    if higher not in position:
        raise UnknownPlayer(f"player {higher} is not in the round's pairing order")
    higher_takes_opposite = position[higher] <= top_half
    # The histories are identical, so both share the last role; whoever takes its opposite
    # decides both seats.
    opposite_is_home = last_role is Role.AWAY
    return higher_home(
        ColourRule.POSITION,
        opposite_is_home if higher_takes_opposite else not opposite_is_home,
    )
