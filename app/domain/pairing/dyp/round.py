"""The entry point of ``dyp`` (``interface.PairRound``; ``docs/rules.md``, "DYP").

The players of the round (``attendance.plays_round``) are taken in standings order, those level
on points, points per match and goal difference in the order of the round's seeded draw
(``"<seed>/round/<n>/-"``), so round 1 is a draw; ``draw.draw_round`` makes the teams and the
matches from that order and from every earlier partnership, meeting and bye. Each match is one
board: ``home`` and ``home_partner`` against ``away`` and ``away_partner``, the team of the
better placed of the four at home (``ColourRule.RANK``). The round's ``rematch_pairs`` are the
partnerships drawn again (none whenever a draw without one exists).

The constraints are empty by construction: a DYP tournament refuses forbidden pairs and
``avoid_same_team`` (``NotForDyp``, ``Settings.check``).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from itertools import groupby

from app.domain.attendance import plays_round
from app.domain.colours import ColourRule
from app.domain.deadline import Deadline
from app.domain.matches import GeneratedRound, Match, SwissRound
from app.domain.pairing.dyp.draw import DypHistory, draw_round
from app.domain.pairing.interface import Constraints, RoundRequest
from app.domain.standings import StandingRow
from app.domain.types import Forfeit, Pair, PairingSystem, PlayerId, Stage

__all__ = ["pair_round"]


def pair_round(
    request: RoundRequest, constraints: Constraints, *, deadline: Deadline
) -> GeneratedRound:
    """Draw round ``request.number``: teams of two, team against team, the players beyond a
    multiple of four sitting out (``draw.draw_round``); ``PairingImpossible`` with fewer than
    four players present."""
    number, settings = request.number, request.settings
    present = [
        row
        for row in request.standings
        if plays_round(
            request.players[row.player_id], number, checked_in_only=settings.pair_checked_in_only
        )
    ]
    order = _drawn_order(present, random.Random(f"{settings.seed}/round/{number}/-"))
    history = dyp_history(request)
    drawn = draw_round(order, history, deadline=deadline)
    matches = tuple(
        Match(
            request.next_id + board - 1,
            Stage.SWISS,
            number,
            None,
            board,
            m.home[0],
            m.away[0],
            ColourRule.RANK,
            home_partner=m.home[1],
            away_partner=m.away[1],
        )
        for board, m in enumerate(drawn.matches, start=1)
    )
    again = tuple(
        Pair(*team)
        for m in drawn.matches
        for team in (m.home, m.away)
        if history.partners.get(frozenset(team))
    )
    paths = ((None, (PairingSystem.DYP.value,)),)
    return GeneratedRound(SwissRound(number, drawn.byes, again, paths), matches)


def _drawn_order(rows: Sequence[StandingRow], rng: random.Random) -> list[PlayerId]:
    """The standings order, each run of players level on points, points per match and goal
    difference shuffled by ``rng`` (the runs are contiguous: the standings sort by those
    first)."""
    order: list[PlayerId] = []
    for _, level in groupby(rows, key=lambda r: (r.points, r.points_per_match, r.goal_difference)):
        ids = [r.player_id for r in level]
        rng.shuffle(ids)
        order.extend(ids)
    return order


def dyp_history(request: RoundRequest) -> DypHistory:
    """Every partnership and meeting of opponents of the earlier rounds, and every player's
    byes. A double forfeit is neither: nobody played."""
    partners: Counter[frozenset[PlayerId]] = Counter()
    opponents: Counter[frozenset[PlayerId]] = Counter()
    for m in request.matches:
        if m.stage is not Stage.SWISS:
            continue
        if m.result is not None and m.result.forfeit is Forfeit.BOTH:
            continue
        for side in (m.home_players, m.away_players):
            if len(side) == 2:
                partners[frozenset(side)] += 1
        for a in m.home_players:
            for b in m.away_players:
                opponents[frozenset((a, b))] += 1
    byes = Counter(pid for r in request.rounds for pid in r.byes)
    return DypHistory(dict(partners), dict(opponents), dict(byes))
