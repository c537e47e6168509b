"""Why ``nearest`` paired a round as it did (``pairing-nearest.md``; issue 22 "Why this
pairing"): for each board, whom its higher player was offered first and why the search moved
on; for the bye, the candidates passed over and why.

The explanation is read back from the round found, not recorded during the search: the search
in order is a replay of the pairs in board order (each board's higher player is the highest
unpaired one when it is paired). A candidate passed over is one of: already met (step 2); one
after whom the players left could not all be paired without a rematch (step 3, one matching
test: ``Matching.partners``); otherwise one the look-ahead ruled out (step 4), or, in a long
override, one left so that the unplayed pairs split into the later rounds. The replay costs one
``partners`` search per board whose player did not take the nearest candidate: no more than
the search itself did.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.explanation import Fact, Placement, RoundExplanation, Step
from app.domain.pairing.base import Entrant, PairingContext, RoundPairing, bye_candidates
from app.domain.pairing.matching import Matching, bits
from app.domain.pairing.placements import fallback_explanation, placements
from app.domain.types import PlayerId

SYSTEM = "nearest"
DRAW = "nearest.draw"
"""Round 1 (round step): the players were shuffled by the seeded draw (fact ``stream``)."""
DRAWN = "nearest.drawn"
"""Round 1: a board of the draw, the shuffled list's places ``first`` and ``second``."""
DRAW_BYE = "nearest.draw_bye"
"""Round 1, odd count: the last of the shuffled list (place ``place``) sits out."""
ALREADY_MET = "nearest.already_met"
"""Step 2: the players after the first had already played the first: not offered."""
NO_COMPLETION = "nearest.no_completion"
"""Step 3: pairing the first player with any of the others would have left players who had
all met each other (the search went back)."""
LOOKAHEAD = "nearest.lookahead"
"""Step 4: pairing the first player with any of the others would have left the
``later_rounds`` rounds after this one impossible without a rematch."""
FACTORIZATION = "nearest.factorization"
"""Step 4, long override: the others were passed over so that the unplayed pairs split into
the later rounds (a proof the look-ahead alone could not give)."""
PAIRED = "nearest.paired"
"""Step 2: the first player, the highest-ranked one still unpaired (``rank``), was paired with
the second (``opponent_rank``); ``nearest`` 1 when it was the nearest unpaired player below
that it had not played."""
BYE = "nearest.bye"
"""Step 1: the player sits out; ``byes`` is how many byes they had before (0: the
lowest-ranked player without one whom an accepted round allows)."""
BYE_NO_ROUND = "nearest.bye_no_round"
"""Step 1: with the bye to any of these players no rematch-free round exists."""
BYE_LOOKAHEAD = "nearest.bye_lookahead"
"""Step 1 and 4: with the bye to any of these players no round passes the look-ahead."""
LOOKAHEAD_IGNORED = "nearest.lookahead_ignored"
"""Step 4 (round step): no round passed the look-ahead with any bye; the first rematch-free
round was taken."""
LOOKAHEAD_UNPROVEN = "nearest.lookahead_unproven"
"""Step 4 (round step): the round was accepted without proof that the later rounds can follow."""

_REF = "pairing-nearest.md, step {}"
_STEP_2 = _REF.format(2)
_ROUND_1 = "pairing-nearest.md, round 1"
_ROUND_RULES = {
    "lookahead_ignored": LOOKAHEAD_IGNORED,
    "lookahead_unproven": LOOKAHEAD_UNPROVEN,
}


def explain_round(
    order: Sequence[Entrant],
    unplayed: Sequence[int],
    context: PairingContext,
    pairing: RoundPairing,
    *,
    deadline: Deadline = NO_DEADLINE,
) -> RoundExplanation:
    """The steps of ``pairing-nearest.md`` that gave ``pairing`` (found from ``order``, the
    unplayed pairs by rank index, and ``context``): the draw in round 1, the fallback when
    the round repeats pairs, else steps 1–4 for every board and the bye."""
    if context.round_number <= 1:
        return _draw(order, context.rng_seed, pairing)
    rank = {e.id: i for i, e in enumerate(order)}
    bye = None if pairing.bye is None else rank[pairing.bye]
    if pairing.is_fallback:
        bye_steps = _bye_steps(order, bye, 0)
        return fallback_explanation(SYSTEM, order, pairing, ref=_REF.format(5), bye_steps=bye_steps)
    allowing = _byes_allowing_a_round(unplayed, deadline) if bye is not None else 0
    lookahead_ignored = "lookahead_ignored" in pairing.path
    skip_rule = FACTORIZATION if "factorization" in pairing.path else LOOKAHEAD
    ids = [e.id for e in order]
    unpaired = _Unpaired(len(order), bye)
    matching: Matching | None = None
    """Built when a player first passed over a candidate it had not met (not in a round where
    everyone took the nearest), then kept up to date."""
    boards: dict[tuple[PlayerId, PlayerId], tuple[Step, ...]] = {}
    for pair in pairing.pairs:
        p, q = rank[pair.higher], rank[pair.lower]
        # p is the highest unpaired player: the ones passed over are the unpaired up to q.
        passed = unpaired.between(p, q)
        row = unplayed[p]
        met = sum(1 << c for c in passed if not row >> c & 1)
        offered = sum(1 << c for c in passed if row >> c & 1)
        steps = [_passed(ALREADY_MET, 2, ids, p, met)] if met else []
        if offered:
            if matching is None:
                matching = Matching(unplayed, unpaired.mask(), deadline=deadline)
            possible = matching.partners(p)
            if offered & ~possible:
                steps.append(_passed(NO_COMPLETION, 3, ids, p, offered & ~possible))
            if offered & possible:
                later = (("later_rounds", context.later_rounds),)
                steps.append(_passed(skip_rule, 4, ids, p, offered & possible, later))
        if matching is not None:
            matching.pair(p, q)  # right after ``partners``: no new search
        unpaired.remove(p)
        unpaired.remove(q)
        facts = (("rank", p + 1), ("opponent_rank", q + 1), ("nearest", int(not offered)))
        steps.append(Step(PAIRED, _STEP_2, (ids[p], ids[q]), facts))
        boards[pair.higher, pair.lower] = tuple(steps)
    round_steps = tuple(
        Step(_ROUND_RULES[rule], _REF.format(4), (), (("later_rounds", context.later_rounds),))
        for rule in pairing.path
        if rule in _ROUND_RULES
    )
    bye_steps = _bye_steps(order, bye, allowing, lookahead_ignored=lookahead_ignored)
    return RoundExplanation(SYSTEM, round_steps, placements(pairing, boards, bye_steps))


def _passed(
    rule: str,
    step: int,
    ids: Sequence[PlayerId],
    p: int,
    others: int,
    facts: tuple[Fact, ...] = (),
) -> Step:
    """A step naming ``p`` and the candidates ``others`` it was not paired with."""
    players = (ids[p], *(ids[c] for c in bits(others)))
    return Step(rule, _REF.format(step), players, (("count", others.bit_count()), *facts))


class _Unpaired:
    """The players not paired yet, in rank order, as a linked list: the players between two
    of them are walked in the time it takes to list them (no bit set of the whole field)."""

    def __init__(self, n: int, bye: int | None) -> None:
        self._next = list(range(1, n + 1))
        self._previous = list(range(-1, n - 1))
        self._head = 0
        if bye is not None:
            self.remove(bye)

    def between(self, p: int, q: int) -> list[int]:
        """The unpaired players after ``p`` and before ``q`` (``q`` comes after ``p``)."""
        found = []
        c = self._next[p]
        while c != q:
            found.append(c)
            c = self._next[c]
        return found

    def remove(self, v: int) -> None:
        before, after = self._previous[v], self._next[v]
        if before >= 0:
            self._next[before] = after
        else:
            self._head = after
        if after < len(self._next):
            self._previous[after] = before

    def mask(self) -> int:
        everyone, v = 0, self._head
        while v < len(self._next):
            everyone |= 1 << v
            v = self._next[v]
        return everyone


def _bye_steps(
    order: Sequence[Entrant], bye: int | None, allowing: int, *, lookahead_ignored: bool = False
) -> tuple[Step, ...]:
    """Step 1: the candidates tried before the player who sits out, and why each was passed
    over (no rematch-free round with their bye; or, unless the look-ahead was ignored, no round
    passing the look-ahead), then the bye itself."""
    if bye is None:
        return ()
    rank = {e.id: i for i, e in enumerate(order)}
    tried = [rank[e.id] for e in bye_candidates(order)]
    before = tried[: tried.index(bye)] if bye in tried else []
    no_round = tuple(order[c].id for c in before if not allowing >> c & 1)
    refused = tuple(order[c].id for c in before if allowing >> c & 1 and not lookahead_ignored)
    steps: list[Step] = []
    if no_round:
        steps.append(Step(BYE_NO_ROUND, _REF.format(1), no_round, (("count", len(no_round)),)))
    if refused:
        steps.append(Step(BYE_LOOKAHEAD, _REF.format(1), refused, (("count", len(refused)),)))
    facts = (("rank", bye + 1), ("byes", order[bye].byes))
    steps.append(Step(BYE, _REF.format(1), (order[bye].id,), facts))
    return tuple(steps)


def _byes_allowing_a_round(unplayed: Sequence[int], deadline: Deadline) -> int:
    """With an odd count, the players whose bye leaves a rematch-free round (one matching)."""
    matching = Matching(unplayed, (1 << len(unplayed)) - 1, deadline=deadline)
    return matching.left_out_by_some() if matching.exposed.bit_count() == 1 else 0


def _draw(order: Sequence[Entrant], stream: str, pairing: RoundPairing) -> RoundExplanation:
    """Round 1: the places each player drew in the shuffled list (the same shuffle as the
    draw's, from the same seed), pairs 1st–2nd, 3rd–4th, …; odd, the last sits out. When a hard
    forbidden pair moved the draw (the engine's search over the drawn order), the boards are
    the round's own, each with the places its players drew."""
    shuffled = list(range(len(order)))
    random.Random(stream).shuffle(shuffled)
    place = {order[r].id: i + 1 for i, r in enumerate(shuffled)}
    placed: list[Placement] = []
    for board, pair in enumerate(pairing.pairs, start=1):
        a, b = pair.higher, pair.lower
        first, second = sorted((place[a], place[b]))
        placed.append(
            Placement(
                board,
                (a, b),
                (Step(DRAWN, _ROUND_1, (a, b), (("first", first), ("second", second))),),
            )
        )
    if pairing.bye is not None:
        step = Step(DRAW_BYE, _ROUND_1, (pairing.bye,), (("place", place[pairing.bye]),))
        placed.append(Placement(None, (pairing.bye,), (step,)))
    draw = Step(DRAW, _ROUND_1, (), (("stream", stream),))
    return RoundExplanation(SYSTEM, (draw,), tuple(placed))
