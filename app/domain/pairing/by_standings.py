"""The entry point of the systems that pair an order of players, ``nearest`` and ``lim``
(``tournament.md``, "Rounds"): each group's active players in standings order are paired by the
system's engine, seated by the colour rules (``colours.md``) and given boards. The hard forbidden
pairs of ``Constraints`` join the history, as if they had met (``docs/rules.md``, "Forbidden
pairings"); the engine's marked fallback never pairs one."""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from app.domain.attendance import plays_round
from app.domain.colours import Seating, assign_colours
from app.domain.deadline import Deadline
from app.domain.errors import PairingImpossible, TooFewPlayers
from app.domain.explanation import COLOUR, GROUP, Placement, RoundExplanation, Step
from app.domain.forbidden import PairConstraint
from app.domain.matches import GeneratedRound, Match, SwissRound
from app.domain.pairing.base import (
    Entrant,
    PairFunction,
    PairingContext,
    PairingHistory,
    RoundPairing,
)
from app.domain.pairing.interface import Constraints, PairRound, RoundRequest
from app.domain.types import (
    Forfeit,
    GroupName,
    Pair,
    Player,
    PlayerId,
    Role,
    RoundNumber,
    Stage,
)


def by_standings(engine: PairFunction) -> PairRound:
    """The entry point of a system whose ``engine`` pairs the standings order of one group."""

    def pair_round(
        request: RoundRequest, constraints: Constraints, *, deadline: Deadline
    ) -> GeneratedRound:
        return _pair_groups(engine, request, constraints.hard, deadline)

    return pair_round


def _pair_groups(
    engine: PairFunction,
    request: RoundRequest,
    hard: Sequence[PairConstraint],
    deadline: Deadline,
) -> GeneratedRound:
    """The round of every group (A then B when the format has ``groups``, else of the one
    field); boards numbered on from group A's, match ids from ``next_id``. The draws take
    ``"<seed>/round/<n>/<group>"`` (``-`` without groups) and ``…/lot`` for the colour lot."""
    number, players, settings = request.number, request.players, request.settings
    swiss = [m for m in request.matches if m.stage is Stage.SWISS]
    history = _history(swiss)
    roles = _roles(players, swiss, rounds_played=number - 1)
    board = 0
    next_id = request.next_id
    new_matches: list[Match] = []
    byes: list[PlayerId] = []
    rematches: list[Pair] = []
    paths: list[tuple[GroupName | None, tuple[str, ...]]] = []
    explained: list[tuple[GroupName | None, RoundExplanation, int]] = []
    names: list[GroupName | None] = [GroupName("A"), GroupName("B")] if request.groups else [None]
    for group in names:
        entrants = [
            Entrant(r.player_id, r.points, r.byes, players[r.player_id].start_number)
            for r in request.standings
            if _pairable(players[r.player_id], number, group, settings.pair_checked_in_only)
        ]
        if len(entrants) < 2:
            raise TooFewPlayers(
                "fewer than 2 active players are left to pair"
                + (f" in group {group}" if group else "")
                + ": add a late entry, or start the final phase"
            )
        stream = f"{settings.seed}/round/{number}/{group or '-'}"
        context = PairingContext(
            round_number=number,
            later_rounds=request.swiss_rounds - number,
            rng_seed=stream,
            points=settings.points,
            deadline=deadline,
        )
        ids = {e.id for e in entrants}
        apart = [c for c in hard if c.first in ids and c.second in ids]
        pairing = engine(entrants, _with_apart(history, apart), context)
        if apart and pairing.is_fallback:
            pairing = _fallback(engine, entrants, history, context, apart, players, group)
        seatings = assign_colours(
            pairing.pairs,
            pairing_order=[e.id for e in entrants],
            roles=roles,
            lot_home_to_better=random.Random(f"{stream}/lot").random() < 0.5,
        )
        explained.append((group, _with_colours(pairing.explanation, seatings), board))
        for seat in seatings:
            board += 1
            new_matches.append(
                Match(next_id, Stage.SWISS, number, group, board, seat.home, seat.away, seat.rule)
            )
            next_id += 1
        if pairing.bye is not None:
            byes.append(pairing.bye)
        rematches.extend(pairing.rematch_pairs)
        paths.append((group, pairing.path))
    explanation = _joined(settings.pairing.value, explained)
    swiss_round = SwissRound(number, tuple(byes), tuple(rematches), tuple(paths), explanation)
    return GeneratedRound(swiss_round, tuple(new_matches))


def _with_colours(explanation: RoundExplanation, seatings: Sequence[Seating]) -> RoundExplanation:
    """Each board's steps, then who is home on it and by which rule of ``colours.md``."""
    placements = tuple(
        p
        if p.board is None or p.board > len(seatings)
        else replace(p, steps=(*p.steps, _colour_step(seatings[p.board - 1])))
        for p in explanation.placements
    )
    return replace(explanation, placements=placements)


def _colour_step(seat: Seating) -> Step:
    return Step(COLOUR, "colours.md", (seat.home, seat.away), (("rule", seat.rule.value),))


def _joined(
    system: str, explained: Sequence[tuple[GroupName | None, RoundExplanation, int]]
) -> RoundExplanation:
    """One explanation for the round: each group's, its boards numbered on from the groups
    before it (``offset``); with groups, each group's round steps open with ``round.group``."""
    round_steps: list[Step] = []
    placements: list[Placement] = []
    byes: list[Placement] = []
    for group, explanation, offset in explained:
        if group is not None:
            round_steps.append(Step(GROUP, "tournament.md, groups", (), (("group", group),)))
        round_steps.extend(explanation.round_steps)
        for p in explanation.placements:
            if p.board is None:
                byes.append(p)
            else:
                placements.append(replace(p, board=p.board + offset))
    return RoundExplanation(system, tuple(round_steps), tuple(placements + byes))


def _with_apart(history: PairingHistory, apart: Sequence[PairConstraint]) -> PairingHistory:
    """The history with every pair of ``apart`` as if the two had met."""
    if not apart:
        return history
    met = {pid: set(opponents) for pid, opponents in history.opponents.items()}
    for pair in apart:
        met.setdefault(pair.first, set()).add(pair.second)
        met.setdefault(pair.second, set()).add(pair.first)
    return PairingHistory({pid: frozenset(s) for pid, s in met.items()})


def _fallback(
    engine: PairFunction,
    entrants: Sequence[Entrant],
    history: PairingHistory,
    context: PairingContext,
    apart: Sequence[PairConstraint],
    players: Mapping[PlayerId, Player],
    group: GroupName | None,
) -> RoundPairing:
    """No round keeps both the history and the hard pairs apart. Without the pairs, is there
    a rematch-free round? Then the pairs are what stops it: refused, naming them. If not, the
    engine's marked fallback stands, unless it pairs a hard pair (refused too)."""
    plain = engine(entrants, history, context)
    keys = {c.players for c in apart}
    if plain.is_fallback and not any(
        (min(p.higher, p.lower), max(p.higher, p.lower)) in keys for p in plain.pairs
    ):
        return plain
    involved = sorted({pid for c in apart for pid in c.players})
    raise PairingImpossible(
        "no round keeps the hard forbidden pairs apart"
        + (f" in group {group}" if group else "")
        + " without a rematch",
        players=involved,
        forbidden=apart,
    ).named({pid: p.name for pid, p in players.items()})


def _pairable(
    player: Player, number: RoundNumber, group: GroupName | None, checked_in_only: bool
) -> bool:
    """Paired in round ``number`` (``attendance.plays_round``: in the tournament, no bye asked
    for it, checked in for round 1 where the tournament asks it), and in ``group`` (if any)."""
    if not plays_round(player, number, checked_in_only=checked_in_only):
        return False
    return group is None or player.group == group


def _history(swiss: Iterable[Match]) -> PairingHistory:
    """Who met whom in the Swiss matches, forfeits included; a double forfeit is no meeting
    (neither showed), so the two may be paired again."""
    met: dict[PlayerId, set[PlayerId]] = {}
    for m in swiss:
        if _both_absent(m):
            continue
        met.setdefault(m.home, set()).add(m.away)
        met.setdefault(m.away, set()).add(m.home)
    return PairingHistory({pid: frozenset(s) for pid, s in met.items()})


def _roles(
    players: Iterable[PlayerId], swiss: Iterable[Match], *, rounds_played: int
) -> dict[PlayerId, list[Role | None]]:
    """Each player's role round by round in the Swiss matches (``None``: not paired, or absent
    from a double forfeit: neither started)."""
    roles: dict[PlayerId, list[Role | None]] = {pid: [None] * rounds_played for pid in players}
    for m in swiss:
        if m.round is not None and not _both_absent(m):
            roles[m.home][m.round - 1] = Role.HOME
            roles[m.away][m.round - 1] = Role.AWAY
    return roles


def _both_absent(match: Match) -> bool:
    return match.result is not None and match.result.forfeit is Forfeit.BOTH
