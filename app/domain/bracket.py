"""The bracket of a knockout final phase: its rounds, matches and slots, and the ranking it
gives (``tournament.md``, "Top cut").

A bracket is data: every match has two slots, and a slot says where its player comes from
(seed 5, the winner of match 3, the loser of match 7), and which side of the bracket it is on
(a double elimination's winners' and losers' brackets and grand final:
``double_elimination``). The semifinals are the bracket of 4 with a third-place match, the
final only that of 2.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from app.domain.errors import InvalidSettings
from app.domain.final_phase import Decided
from app.domain.formats import TOP_CUT_MAX, TOP_CUT_MIN
from app.domain.types import GroupName, PlayerId, Stage

THIRD_PLACE_BOARD = 2
"""The third-place match is played beside the final (as in the semifinals format)."""

_STAGE_FROM_END = (
    Stage.FINAL,
    Stage.SEMIFINAL,
    Stage.QUARTERFINAL,
    Stage.ROUND_OF_16,
    Stage.ROUND_OF_32,
    Stage.ROUND_OF_64,
)


class SlotSource(StrEnum):
    SEED = "seed"
    WINNER = "winner"
    LOSER = "loser"


class BracketSide(StrEnum):
    """Which part of the bracket a match is in: a single elimination is all ``winners``."""

    WINNERS = "winners"
    LOSERS = "losers"
    GRAND_FINAL = "grand_final"


@dataclass(frozen=True, slots=True)
class Slot:
    """Where a match's player comes from: seed ``ref``, or the winner or loser of match ``ref``."""

    source: SlotSource
    ref: int


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """A match of the bracket: its number (play order), round (1 is the first), stage, board and
    its two slots, the upper one first as drawn; its side, and the round within that side.
    ``if_needed`` marks a grand final's reset: played only if the player of the grand final's
    lower slot (the losers' bracket winner) wins it (``reset_needed``)."""

    number: int
    round: int
    stage: Stage
    board: int
    slots: tuple[Slot, Slot]
    side: BracketSide = BracketSide.WINNERS
    if_needed: bool = False


@dataclass(frozen=True, slots=True)
class BracketColumn:
    """A round as drawn: its side, its round within the side, and its places top to bottom,
    each a match number, or ``None`` for a bye's gap."""

    side: BracketSide
    round: int
    places: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class Bracket:
    """A bracket for ``size`` qualifiers, byes for the top seeds: single elimination (the
    winners' side only, ``rounds`` rounds), or a double elimination, whose ``columns`` say how
    it is drawn (empty for a single elimination)."""

    size: int
    rounds: int
    matches: tuple[BracketMatch, ...]
    columns: tuple[BracketColumn, ...] = ()

    @property
    def final(self) -> BracketMatch:
        return next(m for m in self.matches if m.stage in (Stage.FINAL, Stage.GRAND_FINAL))

    def match(self, number: int) -> BracketMatch:
        return self.matches[number - 1]

    @property
    def third_place(self) -> BracketMatch | None:
        return next((m for m in self.matches if m.stage is Stage.THIRD_PLACE), None)

    def numbers(self) -> dict[tuple[Stage, int], int]:
        """Each match's number by its stage and board (how a played match finds its place)."""
        return {(m.stage, m.board): m.number for m in self.matches}

    def fed_by(self, number: int) -> tuple[int, ...]:
        """The matches a slot of which takes the winner or loser of match ``number``."""
        return tuple(
            m.number
            for m in self.matches
            if any(s.source is not SlotSource.SEED and s.ref == number for s in m.slots)
        )


def bracket_order(places: int) -> list[int]:
    """The standard seeding of a bracket of ``places`` (a power of two), top to bottom: 1 v 8,
    4 v 5, 2 v 7, 3 v 6 for 8, so that seeds 1 and 2 can meet only in the final (each round's
    seeds add up to the places plus one)."""
    order = [1]
    while len(order) < places:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def build_bracket(size: int, *, third_place: bool) -> Bracket:
    """The top cut's bracket for ``size`` qualifiers (2 to 64): the standard seeding in the
    next power of two, the top seeds without an opponent go straight to the second round;
    the third-place match (``third_place``, from 4 qualifiers) between the semifinal losers.

    Matches are numbered in play order, round by round and top to bottom, the third-place
    match last; boards count each round's matches from 1 (the third-place match is board 2,
    beside the final).
    """
    if not TOP_CUT_MIN <= size <= TOP_CUT_MAX:
        raise InvalidSettings(
            f"a top cut takes {TOP_CUT_MIN} to {TOP_CUT_MAX} qualifiers, not {size}: choose a size "
            "in that range"
        )
    if third_place and size < 4:
        raise InvalidSettings(
            "a third-place match needs two semifinals, so at least 4 qualifiers: choose a "
            "larger top cut, or leave out `third_place`"
        )
    places = 1 << (size - 1).bit_length()
    rounds = places.bit_length() - 1
    entrants: list[Slot | None] = [
        Slot(SlotSource.SEED, seed) if seed <= size else None for seed in bracket_order(places)
    ]
    matches: list[BracketMatch] = []
    for number in range(1, rounds + 1):
        stage = _STAGE_FROM_END[rounds - number]
        advancing: list[Slot | None] = []
        board = 0
        for top, bottom in zip(entrants[::2], entrants[1::2], strict=True):
            if top is None or bottom is None:
                advancing.append(top or bottom)  # a bye: the seed waits for the next round
                continue
            board += 1
            matches.append(BracketMatch(len(matches) + 1, number, stage, board, (top, bottom)))
            advancing.append(Slot(SlotSource.WINNER, len(matches)))
        entrants = advancing
    if third_place:
        semifinals = [m.number for m in matches if m.stage is Stage.SEMIFINAL]
        matches.append(
            BracketMatch(
                len(matches) + 1,
                rounds,
                Stage.THIRD_PLACE,
                THIRD_PLACE_BOARD,
                (Slot(SlotSource.LOSER, semifinals[0]), Slot(SlotSource.LOSER, semifinals[1])),
            )
        )
    return Bracket(size, rounds, tuple(matches))


def crossed_seeds(
    cross: Sequence[PlayerId], groups: Mapping[PlayerId, GroupName], size: int
) -> list[PlayerId]:
    """The seeds of a top cut after two groups, from the qualifiers in cross order (A1, B1, A2,
    B2, … or B1, A1, …): every first-round match is crossed, a group's p-th against the other
    group's (size/2 + 1 − p)-th, A1 v B4 and B1 v A4 in a top 8 (A1 v B2, B1 v A2 for 4).

    Seeds 2p − 1 and 2p are the p-th of each group; the pairs whose seeds meet in the first
    round keep the same group first, so that the first of one meets the second of the other.
    """
    places = 1 << (size - 1).bit_length()
    pairs = [list(cross[i : i + 2]) for i in range(0, len(cross), 2)]
    for p, pair in enumerate(pairs):
        q = places // 2 - 1 - p
        if p < q < len(pairs) and groups[pairs[q][0]] != groups[pair[0]]:
            pairs[q].reverse()
    return [pid for pair in pairs for pid in pair]


def reset_needed(
    bracket: Bracket, place: BracketMatch, seeds: Sequence[PlayerId], decided: Mapping[int, Decided]
) -> bool:
    """Whether ``place`` is to be played: always, but a grand final's reset (``if_needed``),
    played only once the grand final's lower slot (the losers' bracket winner) has won it."""
    if not place.if_needed:
        return True
    grand_final = bracket.match(place.slots[0].ref)
    result = decided.get(grand_final.number)
    return result is not None and result.winner == slot_player(grand_final.slots[1], seeds, decided)


def slot_player(
    slot: Slot, seeds: Sequence[PlayerId], decided: Mapping[int, Decided]
) -> PlayerId | None:
    """The player in ``slot``: the seed, or the winner or loser of a decided match; ``None``
    while that match has no winner."""
    if slot.source is SlotSource.SEED:
        return seeds[slot.ref - 1]
    result = decided.get(slot.ref)
    if result is None:
        return None
    return result.winner if slot.source is SlotSource.WINNER else result.loser


def bracket_ranking(
    bracket: Bracket,
    decided: Mapping[int, Decided],
    rank: Mapping[PlayerId, int],
) -> list[PlayerId] | None:
    """The qualifiers' places from the bracket, ``None`` until the final (and the third-place
    match, if played) has a winner: 1st and 2nd from the final, 3rd and 4th from the
    third-place match or else the semifinal losers by ``rank`` (the Swiss order), then the
    losers of each earlier round, the later round first, by ``rank``."""
    final = decided.get(bracket.final.number)
    third = bracket.third_place
    third_result = decided.get(third.number) if third is not None else None
    if final is None or (third is not None and third_result is None):
        return None
    placed = [final.winner, final.loser]
    if third_result is not None:
        placed += [third_result.winner, third_result.loser]
    for number in range(bracket.rounds - 1, 0, -1):
        losers = [
            result.loser
            for m in bracket.matches
            if m.round == number
            and (result := decided.get(m.number)) is not None
            and result.loser not in placed
        ]
        placed += sorted(losers, key=lambda pid: rank[pid])
    return placed
