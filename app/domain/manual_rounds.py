"""A Swiss round paired by hand (``docs/rules.md``, "Pairing by hand").

The arbiter gives boards (home, away) and byes. ``hand_round`` checks that every player of the
round is placed exactly once (else ``PairingPlayersInvalid``, listing who is missing, twice,
unknown, withdrawn, on a requested bye, or paired across groups), then the rules
(``pairing_checks``): a rule broken with severity ``error`` and not named in ``accept`` refuses
the round (``PairingRulesBroken``, with every check). Otherwise the round is made as given,
``manual``, with its checks: home is home (White in ``dutch``), boards numbered in the given
order, the byes the round's pairing byes.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace

from app.domain.attendance import plays_round
from app.domain.colours import ColourRule
from app.domain.errors import DomainError
from app.domain.explanation import MANUAL, without_steps
from app.domain.forbidden import PairConstraint
from app.domain.matches import GeneratedRound, Match, MatchId, SwissRound
from app.domain.pairing.interface import Colours
from app.domain.pairing.registry import SYSTEMS
from app.domain.pairing_checks import (
    Board,
    CheckedPlayer,
    CheckRule,
    PairingCheck,
    RoundFacts,
    Severity,
    check_pairing,
    expected_seating,
)
from app.domain.tournament_state import TournamentState
from app.domain.types import (
    ByeKind,
    Forfeit,
    GroupName,
    Pair,
    Player,
    PlayerId,
    Role,
    RoundNumber,
    Score,
    Side,
    Stage,
)

__all__ = [
    "MANUAL_PATH",
    "HandPairing",
    "PairingPlayersInvalid",
    "PairingRulesBroken",
    "hand_round",
]

MANUAL_PATH = "manual"
"""The path of a round paired by hand (``SwissRound.paths``)."""
EXPLAINED_AT = "docs/rules.md#pairing-by-hand"
"""Where its explanation (one step, ``round.manual``) points to."""


@dataclass(frozen=True, slots=True)
class HandPairing:
    """Boards and byes given by the arbiter, and the rules they accept to break."""

    boards: tuple[Board, ...]
    byes: tuple[PlayerId, ...] = ()
    accept: frozenset[CheckRule] = frozenset()

    @property
    def placed(self) -> frozenset[PlayerId]:
        return frozenset(p for b in self.boards for p in (b.home, b.away)) | set(self.byes)


@dataclass(frozen=True)
class PlacementProblems:
    """Why the boards and byes do not place every player of the round exactly once."""

    missing: tuple[PlayerId, ...] = ()
    twice: tuple[PlayerId, ...] = ()
    unknown: tuple[PlayerId, ...] = ()
    withdrawn: tuple[PlayerId, ...] = ()
    on_requested_bye: tuple[PlayerId, ...] = ()
    across_groups: tuple[tuple[PlayerId, PlayerId], ...] = ()
    extra_byes: tuple[PlayerId, ...] = ()
    names: Mapping[PlayerId, str] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return any(
            (
                self.missing,
                self.twice,
                self.unknown,
                self.withdrawn,
                self.on_requested_bye,
                self.across_groups,
                self.extra_byes,
            )
        )

    def sentence(self) -> str:
        def who(ids: Iterable[PlayerId]) -> str:
            return ", ".join(self.names.get(p, str(p)) for p in ids)

        parts = []
        if self.missing:
            parts.append(f"missing: {who(self.missing)}")
        if self.twice:
            parts.append(f"placed twice: {who(self.twice)}")
        if self.unknown:
            parts.append(f"no such player: {', '.join(map(str, self.unknown))}")
        if self.withdrawn:
            parts.append(f"withdrawn: {who(self.withdrawn)}")
        if self.on_requested_bye:
            parts.append(f"asked for a bye in this round: {who(self.on_requested_bye)}")
        if self.across_groups:
            pairs = "; ".join(f"{who(pair[:1])} v {who(pair[1:])}" for pair in self.across_groups)
            parts.append(f"paired across groups: {pairs}")
        if self.extra_byes:
            parts.append(
                f"a group has one bye at most, and only when it is odd: {who(self.extra_byes)}"
            )
        return (
            "every player of the round must be placed exactly once, on a board or on the bye "
            f"({'; '.join(parts)})"
        )


class PairingPlayersInvalid(DomainError):
    """Boards and byes that do not place every player of the round exactly once."""

    code = "pairing_players_invalid"

    def __init__(self, problems: PlacementProblems) -> None:
        super().__init__(problems.sentence())
        self.problems = problems


class PairingRulesBroken(DomainError):
    """A pairing by hand that breaks a rule of severity ``error`` it does not accept."""

    code = "pairing_rules_broken"

    def __init__(self, checks: tuple[PairingCheck, ...], refused: Collection[CheckRule]) -> None:
        rules = sorted(refused, key=list(CheckRule).index)
        sentences = "; ".join(c.sentence for c in checks if c.rule in refused)
        codes = ", ".join(f'"{rule}"' for rule in rules)
        super().__init__(
            f"the pairing breaks {', '.join(rules)}: {sentences}. Send it again with "
            f'"accept": [{codes}] to store it anyway'
        )
        self.checks = checks
        self.refused = tuple(rules)


def hand_round(
    state: TournamentState,
    number: RoundNumber,
    pairing: HandPairing,
    *,
    next_id: MatchId,
    kept: Mapping[Board, Match] = {},
    optional: Collection[PlayerId] = (),
    forbidden: Collection[PairConstraint] = (),
) -> GeneratedRound:
    """Round ``number`` as ``pairing`` gives it, on ``state`` as it stands before that round.

    Every player of the round (entered, not withdrawn, no bye asked for it) is placed exactly
    once; players of ``optional`` (late entrants of the next round) may be placed too. A board
    of ``kept`` (the same home and away as a match of the round it replaces) keeps that match
    (its id, colour rule, ``manual`` as it was); every other board is a new match with an id
    from ``next_id``, marked ``manual``.
    """
    _check_placement(state, number, pairing, optional)
    facts = round_facts(state, number, pairing.placed)
    checks = check_pairing(facts, pairing.boards, pairing.byes, forbidden=forbidden)
    refused = {
        c.rule for c in checks if c.severity is Severity.ERROR and c.rule not in pairing.accept
    }
    if refused:
        raise PairingRulesBroken(checks, refused)
    seated = {} if facts.fide_colours else expected_seating(facts, pairing.boards)
    matches = []
    for board_number, board in enumerate(pairing.boards, start=1):
        group = facts.players[board.home].group
        old = kept.get(board)
        if old is not None:
            matches.append(replace(old, board=board_number))
            continue
        seat = seated.get(board)
        if seat is None:
            rule = ColourRule.FIDE
        else:
            rule = seat.rule if seat.home == board.home else ColourRule.MANUAL
        matches.append(
            Match(
                next_id,
                Stage.SWISS,
                number,
                group,
                board_number,
                board.home,
                board.away,
                rule,
                manual=True,
            )
        )
        next_id += 1
    rematches = tuple(
        _better_first(facts, c.players) for c in checks if c.rule is CheckRule.REMATCH
    )
    groups = sorted({p.group for p in facts.players.values()}, key=lambda g: g or "")
    swiss_round = SwissRound(
        number,
        pairing.byes,
        rematches,
        tuple((g, (MANUAL_PATH,)) for g in groups),
        explanation=without_steps(state.settings.pairing.value, MANUAL, EXPLAINED_AT),
        manual=True,
        checks=checks,
    )
    return GeneratedRound(swiss_round, tuple(matches))


def _better_first(facts: RoundFacts, players: tuple[PlayerId, ...]) -> Pair:
    a, b = (facts.players[p] for p in players)
    return Pair(a.id, b.id) if a.rank < b.rank else Pair(b.id, a.id)


def in_round(player: Player, number: RoundNumber, *, checked_in_only: bool) -> bool:
    """Whether ``player`` is paired in round ``number`` (``attendance.plays_round``): entered,
    not withdrawn, no bye asked for it, and checked in for round 1 when that is asked."""
    return plays_round(player, number, checked_in_only=checked_in_only)


def _check_placement(
    state: TournamentState,
    number: RoundNumber,
    pairing: HandPairing,
    optional: Collection[PlayerId],
) -> None:
    players = state.players
    listed = [p for b in pairing.boards for p in (b.home, b.away)] + list(pairing.byes)
    counts = Counter(listed)
    only = state.settings.pair_checked_in_only
    required = {pid for pid, p in players.items() if in_round(p, number, checked_in_only=only)}
    allowed = required | set(optional)
    unknown = sorted({p for p in counts if p not in players})
    withdrawn = sorted(p for p in counts if p in players and players[p].withdrawn)
    on_bye = sorted(
        p for p in counts if p in players and not players[p].withdrawn and p not in allowed
    )
    across = tuple(
        (b.home, b.away)
        for b in pairing.boards
        if b.home in players
        and b.away in players
        and players[b.home].group != players[b.away].group
    )
    groups: dict[GroupName | None, int] = Counter(players[p].group for p in counts if p in allowed)
    byes_of: dict[GroupName | None, list[PlayerId]] = {}
    for pid in pairing.byes:
        if pid in allowed:
            byes_of.setdefault(players[pid].group, []).append(pid)
    extra = tuple(
        pid for group, ids in byes_of.items() if len(ids) > groups[group] % 2 for pid in ids
    )
    problems = PlacementProblems(
        missing=tuple(sorted(required - set(counts))),
        twice=tuple(sorted(p for p, n in counts.items() if n > 1)),
        unknown=tuple(unknown),
        withdrawn=tuple(withdrawn),
        on_requested_bye=tuple(on_bye),
        across_groups=across,
        extra_byes=extra,
        names={pid: p.name for pid, p in players.items()},
    )
    if problems:
        raise PairingPlayersInvalid(problems)


def round_facts(
    state: TournamentState, number: RoundNumber, placed: Collection[PlayerId]
) -> RoundFacts:
    """What the checks need of ``state`` (the tournament before round ``number``) about the
    players ``placed`` in the round."""
    settings = state.settings
    capabilities = SYSTEMS[settings.pairing].capabilities
    fide = capabilities.colours is Colours.FIDE
    table = settings.points
    swiss = sorted(
        (m for m in state.matches.values() if m.stage is Stage.SWISS and m.round is not None),
        key=lambda m: (m.round or 0, m.board),
    )
    pabs = Counter(pid for r in state.rounds for pid in r.byes)
    rows = {r.player_id: r for r in state.standings()}
    players = [state.players[p] for p in placed]
    if fide:  # C.04.3: score, then pairing number
        order = sorted(players, key=lambda p: (-rows[p.id].points, p.start_number))
    else:
        order = sorted(players, key=lambda p: rows[p.id].rank)
    rank: dict[PlayerId, int] = {}
    for group in {p.group for p in players}:
        for i, p in enumerate(q for q in order if q.group == group):
            rank[p.id] = i
    met: dict[PlayerId, set[PlayerId]] = {}
    roles: dict[PlayerId, list[Role | None]] = {
        p.id: [None] * (number - 1) for p in state.players.values()
    }
    colours: dict[PlayerId, list[Side]] = {}
    won_unplayed: set[PlayerId] = set()
    for m in swiss:
        forfeit = m.result.forfeit if m.result is not None else None
        if forfeit is Forfeit.BOTH:
            continue
        if forfeit is not None:
            won_unplayed.add(m.home if forfeit is Forfeit.AWAY else m.away)
        if not fide or forfeit is None:  # C.04.2 Art. 3: a forfeit is no game
            met.setdefault(m.home, set()).add(m.away)
            met.setdefault(m.away, set()).add(m.home)
        if forfeit is None:
            colours.setdefault(m.home, []).append(Side.HOME)
            colours.setdefault(m.away, []).append(Side.AWAY)
        if m.round is not None and m.round < number:
            roles[m.home][m.round - 1] = Role.HOME
            roles[m.away][m.round - 1] = Role.AWAY
    if table.bye >= table.win:
        won_unplayed |= set(pabs)
    if table.draw >= table.win:
        won_unplayed |= {
            p.id
            for p in state.players.values()
            if any(b.kind is ByeKind.HALF_POINT and b.round < number for b in p.requested_byes)
        }
    checked = {
        p.id: CheckedPlayer(
            id=p.id,
            name=p.name,
            group=p.group,
            score=rows[p.id].points,
            rank=rank[p.id],
            opponents=frozenset(met.get(p.id, ())),
            byes=pabs[p.id] if fide else rows[p.id].byes,
            roles=tuple(roles[p.id]),
            colours=tuple(colours.get(p.id, ())),
            bye_eligible=p.id not in won_unplayed,
        )
        for p in players
    }
    groups = {p.group for p in players}
    return RoundFacts(
        fide_colours=fide,
        absolute_criteria=capabilities.absolute_criteria,
        number=number,
        players=checked,
        last_round=number == state.format.swiss_rounds,
        top_line=Score((number - 1) * max(table.win, table.draw)),
        lot_home_to_better={
            g: random.Random(f"{settings.seed}/round/{number}/{g or '-'}/lot").random() < 0.5
            for g in groups
        },
    )
