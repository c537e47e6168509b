"""Why ``lim`` paired a round as it did (``pairing-lim.md``; issue 22 "Why this pairing"): the
score groups and the median, the players who floated from group to group and why, and for each
board the group it was made in and the rule that made it (a floater's best or worst available
opponent, or top half against bottom half with transpositions and exchanges); the fallbacks.

Built from what the procedure recorded as it went (``groups.GroupPairing``): nothing is paired
twice, and the cost is linear in the round.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.domain.explanation import Fact, RoundExplanation, Step
from app.domain.pairing.base import Entrant, RoundPairing
from app.domain.pairing.lim.groups import DOWN, UP, GroupPairing, HowPaired, Move
from app.domain.pairing.placements import fallback_explanation, placements
from app.domain.types import PlayerId

SYSTEM = "lim"
TOP_BOTTOM = "lim.top_bottom"
"""Round 1: one score group, top half against bottom half (round step; on a board, with the
players' places ``rank`` and ``opponent_rank``)."""
SCORE_GROUP = "lim.score_group"
"""Step 2 (round step): a score group as it began (``score``; ``median`` 1 for the median
group)."""
MEDIAN = "lim.median"
"""Step 2 (round step): the median score, ``median_score``."""
MEDIAN_BLOCKED = "lim.median_blocked"
"""Step 5 (round step): the median group could not be paired; the group ``undone_score`` was
undone into it (its players)."""
FALLBACK_SEARCH = "lim.fallback_search"
"""Step 7 (round step): the procedure got stuck; the round came from the search over unmet
pairs (fewest pairs across score groups)."""
GROUP = "lim.group"
"""Steps 3–5: the board was paired in the group ``score`` (``median`` 1: the median group)."""
DOWNFLOATER = "lim.downfloater"
"""Steps 3.1, 3.2, 3.4, 5: the player moved down from ``from_score`` to ``to_score`` because of
``reason``: ``odd`` (lowest of an odd group), ``island`` (had met everyone in the group),
``exchange`` (sent in exchange for an island), ``unpairable`` (the group could pair without
them), ``undone`` (their group was undone into the blocked median group)."""
UPFLOATER = "lim.upfloater"
"""Step 4, 5: the mirror image, moving up."""
FLOATER_PAIRED = "lim.floater_paired"
"""Step 3.3: a floater took its ``best`` or ``worst`` available opponent (``choice``)."""
HALVES = "lim.halves"
"""Step 6, rule 11.2: S1's ``position``-th player against S2's ``opponent_position``-th."""
TRANSPOSITION = "lim.transposition"
"""Step 6: S2 was permuted so that nobody meets again."""
EXCHANGE = "lim.exchange"
"""Step 6: players were exchanged between S1 and S2 so that nobody meets again."""
SEARCHED = "lim.searched"
"""Step 7: the board comes from the fallback search."""
BYE = "lim.bye"
"""Step 1: the player sits out (place ``rank``; ``byes`` the byes they had before: 0 is the
lowest-ranked player without one)."""

_REF = "pairing-lim.md, step {}"


def top_bottom(order: Sequence[Entrant], pairing: RoundPairing) -> RoundExplanation:
    """Round 1: each board is S1's i-th player against S2's i-th."""
    rank = {e.id: i + 1 for i, e in enumerate(order)}
    ref = "pairing-lim.md, the order"
    boards = {
        (p.higher, p.lower): (
            Step(
                TOP_BOTTOM,
                ref,
                (p.higher, p.lower),
                (("rank", rank[p.higher]), ("opponent_rank", rank[p.lower])),
            ),
        )
        for p in pairing.pairs
    }
    return RoundExplanation(
        SYSTEM, (Step(TOP_BOTTOM, ref),), placements(pairing, boards, bye_steps(order, pairing))
    )


def by_groups(
    order: Sequence[Entrant],
    players: Sequence[Entrant],
    grouped: GroupPairing,
    pairing: RoundPairing,
    *,
    doubled_median: int,
) -> RoundExplanation:
    """Steps 2–6: the groups and the median, the undone groups, then per board the group, its
    players' moves and the rule that paired them. ``players`` are the ranks the procedure
    paired (the order without the bye)."""
    ids = [e.id for e in players]
    index = {pid: r for r, pid in enumerate(ids)}
    round_steps: list[Step] = [
        Step(
            SCORE_GROUP,
            _REF.format(2),
            tuple(ids[r] for r in members),
            (("score", _score(doubled)), ("median", int(doubled == doubled_median))),
        )
        for doubled, members in grouped.groups
    ]
    round_steps.append(
        Step(MEDIAN, _REF.format(2), (), (("median_score", _score(doubled_median)),))
    )
    round_steps += [
        Step(
            MEDIAN_BLOCKED,
            _REF.format(5),
            tuple(ids[r] for r in members),
            (("undone_score", _score(doubled)),),
        )
        for doubled, members in grouped.undone
    ]
    moves: dict[int, list[Move]] = {}
    for move in grouped.moves:
        moves.setdefault(move.player, []).append(move)
    how = dict(grouped.how)
    boards: dict[tuple[PlayerId, PlayerId], tuple[Step, ...]] = {}
    for pair in pairing.pairs:
        a, b = index[pair.higher], index[pair.lower]
        steps: list[Step] = []
        made = how.get((a, b))
        if made is not None:
            steps.append(_group_step(made))
        for player in (a, b):
            steps += [_move_step(ids[player], m) for m in moves.get(player, ())]
        if made is not None:
            steps += _rule_steps(made, ids, a, b)
        boards[pair.higher, pair.lower] = tuple(steps)
    return RoundExplanation(
        SYSTEM, tuple(round_steps), placements(pairing, boards, bye_steps(order, pairing))
    )


def searched(order: Sequence[Entrant], pairing: RoundPairing) -> RoundExplanation:
    """Step 7: the round came from the search over the unmet pairs."""
    boards = {
        (p.higher, p.lower): (Step(SEARCHED, _REF.format(7), (p.higher, p.lower)),)
        for p in pairing.pairs
    }
    return RoundExplanation(
        SYSTEM,
        (Step(FALLBACK_SEARCH, _REF.format(7)),),
        placements(pairing, boards, bye_steps(order, pairing)),
    )


def fallback(order: Sequence[Entrant], pairing: RoundPairing) -> RoundExplanation:
    """No rematch-free round exists: by the order, with rematches."""
    return fallback_explanation(
        SYSTEM, order, pairing, ref=_REF.format(7), bye_steps=bye_steps(order, pairing)
    )


def bye_steps(order: Sequence[Entrant], pairing: RoundPairing) -> tuple[Step, ...]:
    if pairing.bye is None:
        return ()
    place = next(i for i, e in enumerate(order) if e.id == pairing.bye)
    facts = (("rank", place + 1), ("byes", order[place].byes))
    return (Step(BYE, _REF.format(1), (pairing.bye,), facts),)


def _group_step(made: HowPaired) -> Step:
    step = _REF.format(5 if made.median else 3)
    return Step(GROUP, step, (), (("score", _score(made.group)), ("median", int(made.median))))


def _move_step(player: PlayerId, move: Move) -> Step:
    direction = DOWN if move.target < move.source else UP
    rule = DOWNFLOATER if direction == DOWN else UPFLOATER
    step = {"odd": "3.2", "island": "3.1", "exchange": "3.1", "unpairable": "3.4"}.get(
        move.reason, "5"
    )
    facts: tuple[Fact, ...] = (
        ("from_score", _score(move.source)),
        ("to_score", _score(move.target)),
        ("reason", move.reason),
    )
    return Step(rule, _REF.format(step), (player,), facts)


def _rule_steps(made: HowPaired, ids: Sequence[PlayerId], a: int, b: int) -> list[Step]:
    """The floater (or S1's player) first, as the procedure paired them."""
    first, second = (a, b) if made.first != b else (b, a)
    if made.choice:
        facts = (("choice", made.choice),)
        return [Step(FLOATER_PAIRED, _REF.format("3.3"), (ids[first], ids[second]), facts)]
    steps = [
        Step(
            HALVES,
            _REF.format(6),
            (ids[first], ids[second]),
            (("position", made.positions[0]), ("opponent_position", made.positions[1])),
        )
    ]
    if made.transposed:
        steps.append(Step(TRANSPOSITION, _REF.format(6)))
    if made.exchanged:
        steps.append(Step(EXCHANGE, _REF.format(6)))
    return steps


def _score(doubled: int) -> int | str:
    """A group's doubled score as half-points (a ``…_score`` fact); a median between two
    half-points (an odd win value) as points written out."""
    if doubled % 2 == 0:
        return doubled // 2
    return str(doubled / 4)
