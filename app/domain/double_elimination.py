"""Double elimination: the winners' and losers' brackets, the grand final and its reset, and
the ranking they give (``docs/rules.md``, "Double elimination").

Nobody is out before two losses: the winners' bracket is the top cut's bracket (standard
seeding, byes for the top seeds); its losers drop into the losers' bracket, where a second loss
is the end; the two brackets' winners meet in the grand final, played again (the reset) if the
losers' bracket winner wins it, unless the reset is turned off.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.domain.bracket import (
    Bracket,
    BracketColumn,
    BracketMatch,
    BracketSide,
    Slot,
    SlotSource,
    bracket_order,
    reset_needed,
)
from app.domain.errors import InvalidSettings
from app.domain.final_phase import Decided
from app.domain.formats import DOUBLE_ELIMINATION_MAX, DOUBLE_ELIMINATION_MIN
from app.domain.types import PlayerId, Stage

WINNERS_STAGES = (
    Stage.WINNERS_ROUND_1,
    Stage.WINNERS_ROUND_2,
    Stage.WINNERS_ROUND_3,
    Stage.WINNERS_ROUND_4,
)
LOSERS_STAGES = (
    Stage.LOSERS_ROUND_1,
    Stage.LOSERS_ROUND_2,
    Stage.LOSERS_ROUND_3,
    Stage.LOSERS_ROUND_4,
    Stage.LOSERS_ROUND_5,
    Stage.LOSERS_ROUND_6,
)


@dataclass(frozen=True, slots=True)
class _Node:
    """A match of the full layout (every place of a power of two), before byes are taken out:
    its side, its round there, its place in the round, and its two players' origins as
    ``(source, node)`` (``SEED`` with the seed). Only a place with both players is a node."""

    side: BracketSide
    round: int
    place: int
    slots: tuple[tuple[SlotSource, int], tuple[SlotSource, int]]


Origin = tuple[SlotSource, int] | None
"""Where a player of the full layout comes from; ``None``: nobody (a bye's empty place)."""


class _Layout:
    """The full layout, built side by side; a pair with one player missing is no match, the
    player goes on (a bye), and one with both missing sends nobody on."""

    def __init__(self) -> None:
        self.nodes: list[_Node] = []
        self.places: dict[tuple[BracketSide, int], int] = {}

    def play(
        self, side: BracketSide, number: int, pairs: Sequence[tuple[Origin, Origin]]
    ) -> tuple[list[Origin], list[Origin]]:
        """The round's winners and losers, place by place."""
        self.places[(side, number)] = len(pairs)
        winners: list[Origin] = []
        losers: list[Origin] = []
        for place, (top, bottom) in enumerate(pairs):
            if top is None or bottom is None:
                winners.append(top or bottom)
                losers.append(None)
                continue
            self.nodes.append(_Node(side, number, place, (top, bottom)))
            node = len(self.nodes) - 1
            winners.append((SlotSource.WINNER, node))
            losers.append((SlotSource.LOSER, node))
        return winners, losers


def _pairs(origins: Sequence[Origin]) -> list[tuple[Origin, Origin]]:
    return list(zip(origins[::2], origins[1::2], strict=True))


def build_double_elimination(size: int, *, reset: bool) -> Bracket:
    """The double elimination of ``size`` qualifiers (4 to 16).

    - **Winners' bracket**: the top cut's (the next power of two, standard seeding, the top
      seeds without an opponent wait in round 2).
    - **Losers' bracket**: losers' round 1 pairs the losers of winners' round 1, neighbours
      (the losers of matches 1 and 2, 3 and 4 …); then, for each later winners' round, a
      round where its losers drop in, in reverse order (the top match's loser meets the bottom
      of the losers' bracket, so that nobody meets again at once someone he played on the way
      down), followed, while more than one is left, by a round that halves the field.
    - **Grand final**: the winners' bracket winner (upper slot) against the losers' bracket
      winner; with ``reset`` a second match between the same two, played only if the losers'
      bracket winner wins the first (``reset_needed``).

    With byes, a place with one player is no match (the player goes on), and a losers' round
    left without any match is dropped. Matches are numbered in play order: winners' round 1,
    then each winners' round followed by the losers' rounds it feeds (W1, W2, L1, L2, W3, L3,
    L4, W4, L5, L6), then the grand final and the reset; boards count a round's matches from 1.
    """
    if not DOUBLE_ELIMINATION_MIN <= size <= DOUBLE_ELIMINATION_MAX:
        raise InvalidSettings(
            f"a double elimination takes {DOUBLE_ELIMINATION_MIN} to {DOUBLE_ELIMINATION_MAX} "
            f"qualifiers, not {size}: choose a size in that range"
        )
    places = 1 << (size - 1).bit_length()
    rounds = places.bit_length() - 1
    layout = _Layout()
    winners_side, losers_side = BracketSide.WINNERS, BracketSide.LOSERS
    alive: list[Origin] = [
        (SlotSource.SEED, seed) if seed <= size else None for seed in bracket_order(places)
    ]
    dropped: list[list[Origin]] = []
    for number in range(1, rounds + 1):
        alive, losers = layout.play(winners_side, number, _pairs(alive))
        dropped.append(losers)
    down, _ = layout.play(losers_side, 1, _pairs(dropped[0]))
    losers_round = 1
    for number in range(2, rounds + 1):
        losers_round += 1
        drop_in = list(zip(down, reversed(dropped[number - 1]), strict=True))
        down, _ = layout.play(losers_side, losers_round, drop_in)
        if len(down) > 1:
            losers_round += 1
            down, _ = layout.play(losers_side, losers_round, _pairs(down))
    layout.play(BracketSide.GRAND_FINAL, 1, [(alive[0], down[0])])
    return _numbered(size, layout, rounds, reset=reset)


def _play_order(node: _Node, rounds: int) -> tuple[int, int, int]:
    """W1, then each winners' round r followed by losers' rounds 2r − 3 and 2r − 2, then the
    grand final; top to bottom within a round."""
    if node.side is BracketSide.WINNERS:
        return (node.round, 0, node.place)
    if node.side is BracketSide.LOSERS:
        return ((node.round + 3) // 2, node.round, node.place)
    return (rounds + 1, 0, node.place)


def _numbered(size: int, layout: _Layout, rounds: int, *, reset: bool) -> Bracket:
    order = sorted(range(len(layout.nodes)), key=lambda i: _play_order(layout.nodes[i], rounds))
    number_of = {node: n for n, node in enumerate(order, start=1)}
    # a losers' round without a match (all byes) is dropped: the next is numbered in its place
    played_losers = sorted({n.round for n in layout.nodes if n.side is BracketSide.LOSERS})
    losers_round = {r: i for i, r in enumerate(played_losers, start=1)}
    matches: list[BracketMatch] = []
    boards: dict[tuple[BracketSide, int], int] = {}
    columns: dict[tuple[BracketSide, int], list[int | None]] = {}
    for node_id in order:
        node = layout.nodes[node_id]
        number = losers_round[node.round] if node.side is BracketSide.LOSERS else node.round
        key = (node.side, number)
        boards[key] = boards.get(key, 0) + 1
        if node.side is BracketSide.WINNERS:
            stage = WINNERS_STAGES[number - 1]
        elif node.side is BracketSide.LOSERS:
            stage = LOSERS_STAGES[number - 1]
        else:
            stage = Stage.GRAND_FINAL
        slots = tuple(
            Slot(source, ref if source is SlotSource.SEED else number_of[ref])
            for source, ref in node.slots
        )
        matches.append(
            BracketMatch(
                number_of[node_id], number, stage, boards[key], (slots[0], slots[1]), node.side
            )
        )
        column = columns.setdefault(key, [None] * layout.places[(node.side, node.round)])
        column[node.place] = number_of[node_id]
    if reset:
        final = matches[-1].number
        matches.append(
            BracketMatch(
                final + 1,
                2,
                Stage.GRAND_FINAL_RESET,
                1,
                (Slot(SlotSource.WINNER, final), Slot(SlotSource.LOSER, final)),
                BracketSide.GRAND_FINAL,
                if_needed=True,
            )
        )
        columns[(BracketSide.GRAND_FINAL, 2)] = [final + 1]
    side_order = list(BracketSide)
    drawn = tuple(
        BracketColumn(side, number, tuple(places))
        for (side, number), places in sorted(
            columns.items(), key=lambda kv: (side_order.index(kv[0][0]), kv[0][1])
        )
    )
    return Bracket(size, rounds, tuple(matches), drawn)


def double_elimination_ranking(
    bracket: Bracket, decided: Mapping[int, Decided], rank: Mapping[PlayerId, int]
) -> list[PlayerId] | None:
    """The qualifiers' places, ``None`` until the grand final (and its reset, when needed) has
    a winner: 1st and 2nd from the last grand final played; then the losers of each losers'
    round, the later round first (3rd the losers' final's loser, 4th the round's before …),
    those of one round by ``rank`` (the Swiss order)."""
    grand_final = bracket.final
    result = decided.get(grand_final.number)
    if result is None:
        return None
    reset = next((m for m in bracket.matches if m.if_needed), None)
    if reset is not None and reset_needed(bracket, reset, (), decided):
        result = decided.get(reset.number)
        if result is None:
            return None
    placed = [result.winner, result.loser]
    losers_rounds = max(m.round for m in bracket.matches if m.side is BracketSide.LOSERS)
    for number in range(losers_rounds, 0, -1):
        out = [
            played.loser
            for m in bracket.matches
            if m.side is BracketSide.LOSERS
            and m.round == number
            and (played := decided.get(m.number)) is not None
        ]
        placed += sorted(out, key=lambda pid: rank[pid])
    return placed
