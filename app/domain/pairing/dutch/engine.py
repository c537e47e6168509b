"""Pairing system ``dutch``: the FIDE (Dutch) System, C.04.3 as applied from 1 February 2026.

``pair_dutch`` pairs one round. The players to pair are ranked by score, then pairing number
(Art. 1.2), and split into scoregroups. Before any bracket, the bye's score is fixed (C5,
``bye``). Then the brackets are paired from the top scoregroup down (Art. 1.9.2), each
with the players left over from the one above (``brackets``): the best candidate by the
criteria of Art. 2, the first generated among equals (Art. 3–4). Last, every pair gets its
colours (Art. 5, ``colours``) and the boards are ordered for publication.

A bracket is first paired on its own. That is the answer whenever the players it sends down can
all meet the next scoregroup (C8 at its best) and everybody left can still be paired (C4), which
is checked afterwards; otherwise together with the next scoregroup (C8 exact), the answer when
what that leaves can still be paired with everybody below (C4); otherwise together with
everybody below. The last gives the same pairs as the one before whenever that one passes C4
(it puts C4 first, then the same criteria), so once C4 has failed after the next scoregroup in
a round, the brackets under it go straight to everybody below: late in a long event C4 fails
so for every bracket from the middle of the field down.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.errors import PairingImpossible
from app.domain.explanation import RoundExplanation
from app.domain.pairing.dutch.below import Start
from app.domain.pairing.dutch.brackets import BracketPairing, Scope, pair_bracket
from app.domain.pairing.dutch.bye import ByePlan, plan_bye
from app.domain.pairing.dutch.colours import colour_of_higher
from app.domain.pairing.dutch.completion import completable, maximum_matching
from app.domain.pairing.dutch.criteria import Criteria
from app.domain.pairing.dutch.explanation import SYSTEM, BracketRecord, explain_round
from app.domain.pairing.dutch.state import PlayerState, player_states
from app.domain.pairing.dutch.transpositions import pair_in_order
from app.domain.pairing.dutch.types import (
    Board,
    Colour,
    DutchInput,
    DutchPairing,
)
from app.domain.types import PlayerId, Score

__all__ = ["pair_dutch"]


def pair_dutch(round_: DutchInput, *, deadline: Deadline = NO_DEADLINE) -> DutchPairing:
    """Pair ``round_`` by the FIDE (Dutch) System.

    Raises ``PairingImpossible`` when no pairing meets C1–C3 (Art. 1.9.3), and
    ``PairingTimeout`` when ``deadline`` passes during the search (nothing is changed).
    """
    check = deadline.check
    states = player_states(round_)
    players = sorted(
        (states[p.id] for p in round_.players if p.present),
        key=lambda state: (-state.score, state.number),
    )
    if not players:
        return DutchPairing((), explanation=RoundExplanation(SYSTEM))
    table = round_.points
    played_rounds = round_.round_number - 1
    forbidden: dict[PlayerId, frozenset[PlayerId]] = {}
    for a, b in round_.forbidden:
        forbidden[a] = forbidden.get(a, frozenset()) | {b}
        forbidden[b] = forbidden.get(b, frozenset()) | {a}

    absolute = Criteria(
        players,
        played_rounds=played_rounds,
        last_round=round_.round_number == round_.total_rounds,
        top_line=Score(played_rounds * max(table.win, table.draw)),
        bye_score=None,
        played_ranks={},
        forbidden=forbidden,
    )
    # The absolute criteria fix the bye's score; the weights then depend on it (C5, C9).
    plan = plan_bye(absolute)
    criteria = absolute.with_bye(plan.score, plan.played_ranks)
    records: list[BracketRecord] = []
    pairs, bye = _pair_brackets(criteria, plan, check, records)
    ordered = _board_order(players, pairs)
    explanation = explain_round(criteria, plan.score, records, ordered, bye, round_.initial_colour)
    return _publish(players, ordered, bye, round_.initial_colour, explanation)


def _scoregroups(players: Sequence[PlayerState]) -> list[list[int]]:
    groups: list[list[int]] = []
    for index, player in enumerate(players):
        if groups and players[groups[-1][0]].score == player.score:
            groups[-1].append(index)
        else:
            groups.append([index])
    return groups


def _pair_brackets(
    criteria: Criteria,
    plan: ByePlan,
    check: Callable[[], None] | None,
    records: list[BracketRecord],
) -> tuple[list[tuple[int, int]], int | None]:
    """Art. 1.9.2: the brackets from the top scoregroup down; (pairs, the PAB's player).

    A bracket is paired on its own unless it holds the PAB's score or a higher one (the PAB
    must then come from it or from above, and only the whole rest can tell whom), or the check
    of C4 and C8 after pairing it alone fails. Each bracket's pairing is noted in ``records``
    for the explanation.
    """
    players = criteria.players
    groups = _scoregroups(players)
    odd = plan.score is not None
    bye_games = plan.from_top
    pairs: list[tuple[int, int]] = []
    mdps: list[int] = []
    start = Start()  # carried from one matching over everybody below to the next
    with_next = True  # until C4 fails after the next scoregroup once (module docstring)
    for g, residents in enumerate(groups):
        if check is not None:
            check()
        following = groups[g + 1] if g + 1 < len(groups) else []
        below = [v for group in groups[g + 2 :] for v in group]
        resident_score = players[residents[0]].score
        bye_here = odd and plan.score is not None and plan.score >= resident_score
        result: BracketPairing | None = None
        plain: dict[tuple[int, int], int] = {}  # the weights shared with ``pair_bracket``
        how, scope = "alone", Scope()
        if not following:
            scope = Scope(completion=odd, bye_games=bye_games)
            result = _pair_alone(criteria, mdps, residents, scope, check)
        elif not bye_here:
            # Paired alone only when that can pass C8's check (``_sends_down_too_many``).
            if not _sends_down_too_many(criteria, mdps, residents, following):
                local = _pair_alone(criteria, mdps, residents, scope, check)
                if _leaves_best_next(criteria, local.floaters, following, below):
                    result = local
            if result is None and with_next and players[following[0]].score != plan.score:
                how = "next"
                result = _pair_with_next(criteria, mdps, residents, following, below, check, plain)
                with_next = result is not None
        if result is None:
            how, scope = "rest", Scope(completion=True, bye_games=bye_games)
            result = pair_bracket(
                criteria,
                mdps,
                residents,
                Scope(
                    following=following,
                    below=below,
                    completion=True,
                    bye_games=bye_games,
                    bye_games_below=plan.from_top,
                ),
                check=check,
                start=start,
                plain=plain,
            )
            bye_games = _bye_games_next(criteria, plan, result, following)
        else:
            # Paired alone: everybody moving down meets the next scoregroup, which pairs among
            # itself, so C9 applies there exactly when it holds the PAB's score.
            bye_games = bool(following) and players[following[0]].score == plan.score
        records.append(
            BracketRecord(
                tuple(mdps),
                tuple(residents),
                tuple(result.pairs),
                tuple(result.floaters),
                scope.completion,
                scope.bye_games,
                how,
            )
        )
        pairs.extend(result.pairs)
        mdps = result.floaters
    if len(mdps) > 1:
        raise PairingImpossible(
            "the last bracket could not be completed",
            players=[players[v].id for v in mdps],
        )
    return pairs, (mdps[0] if mdps else None)


def _pair_with_next(
    criteria: Criteria,
    mdps: Sequence[int],
    residents: Sequence[int],
    following: Sequence[int],
    below: Sequence[int],
    check: Callable[[], None] | None,
    plain: dict[tuple[int, int], int] | None = None,
) -> BracketPairing | None:
    """The bracket paired together with the next scoregroup (C8 exact), when what that
    leaves unpaired can still be paired with everybody below (C4); else ``None``.
    ``plain``: filled with the pairs' weights (``pair_bracket``)."""
    near = pair_bracket(
        criteria, mdps, residents, Scope(following=following), check=check, plain=plain
    )
    left = [v for v in [*near.floaters, *following] if v not in near.partner]
    return near if completable(criteria, [*left, *below]) else None


FAST_FROM = 20
"""Brackets of at least this many players walk Art. 4 in order (``transpositions``)
before the exact matching is tried."""


def _pair_alone(
    criteria: Criteria,
    mdps: Sequence[int],
    residents: Sequence[int],
    scope: Scope,
    check: Callable[[], None] | None,
) -> BracketPairing:
    """A bracket paired on its own: in order when that is certain, else by the matching."""
    if len(mdps) + len(residents) >= FAST_FROM:
        found = pair_in_order(criteria, mdps, residents, scope, check=check)
        if found is not None:
            return found
    return pair_bracket(criteria, mdps, residents, scope, check=check)


def _bye_games_next(
    criteria: Criteria, plan: ByePlan, result: BracketPairing, following: Sequence[int]
) -> bool:
    """C9 applies to the next bracket when the bye's score is at least its residents' score
    (the PAB comes from its residents or from the players moving down into it) and none of
    the players moving on (or already there) is headed below it: its one player left over is
    then the PAB. When the lowest scoregroup cannot give the PAB, the bye's score is higher
    than its residents' and the PAB is among the players moving down (issue 21)."""
    if plan.score is None or not following:
        return False
    players = criteria.players
    next_score = players[following[0]].score
    if next_score > plan.score:
        return False
    for v in [*result.floaters, *following]:
        partner = result.partner.get(v, v)
        if players[partner].score < next_score:
            return False
    return True


def _sends_down_too_many(
    criteria: Criteria, mdps: Sequence[int], residents: Sequence[int], following: Sequence[int]
) -> bool:
    """Paired alone, the bracket would send down more players than the next scoregroup has,
    which ``_leaves_best_next`` refuses: it makes at most a maximum matching's pairs (the MDPs
    apart, Art. 3.3), so at least the players such a matching leaves move down. Late in a long
    event most brackets fail so, and this costs one maximum matching on bit sets instead of
    the bracket's pairing."""
    size = len(mdps) + len(residents)
    if size <= len(following):
        return False
    # Every pair has a resident in it: with more MDPs than residents and the next scoregroup
    # together, no matching is needed (late in a long event, nine brackets in ten).
    if len(mdps) - len(residents) > len(following):
        return True
    pairs = maximum_matching(criteria, [*mdps, *residents], apart=set(mdps)).size
    return size - 2 * pairs > len(following)


def _leaves_best_next(
    criteria: Criteria,
    floaters: Sequence[int],
    following: Sequence[int],
    below: Sequence[int],
) -> bool:
    """C8 at its best and C4: every player sent down meets somebody of the next scoregroup,
    the next scoregroup pairs as many of its own as it can, and everybody left (with the bye
    where it falls) can still be paired."""
    if len(floaters) > len(following):
        return False
    sent = set(floaters)
    near = maximum_matching(criteria, [*floaters, *following], apart=sent)
    total = len(floaters) + len(following)
    if near.size < total // 2:
        return False
    if total % 2 == 0:  # a perfect matching: every player sent down is paired
        return completable(criteria, below)
    spare = [v for v in near.exposable() if v not in sent]
    return any(completable(criteria, [v, *below]) for v in spare)


def _board_order(
    players: Sequence[PlayerState], pairs: Sequence[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The boards in C.04.2 order: the higher player's score, then the lower player's score,
    then the higher player's rank."""
    return sorted(
        pairs, key=lambda pair: (-players[pair[0]].score, -players[pair[1]].score, pair[0])
    )


def _publish(
    players: Sequence[PlayerState],
    ordered: Sequence[tuple[int, int]],
    bye: int | None,
    initial: Colour,
    explanation: RoundExplanation,
) -> DutchPairing:
    """Colours by Art. 5 of the pairs in board order."""
    boards = []
    for higher, lower in ordered:
        h, lo = players[higher], players[lower]
        if colour_of_higher(h, lo, initial) is Colour.WHITE:
            boards.append(Board(h.id, lo.id))
        else:
            boards.append(Board(lo.id, h.id))
    return DutchPairing(tuple(boards), players[bye].id if bye is not None else None, explanation)
