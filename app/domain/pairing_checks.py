"""The rules a pairing made by hand is checked against (``docs/rules.md``, "Pairing by hand").

Given the tournament as it stood before the round (``RoundFacts``, with what its system declares
it follows: FIDE colours, absolute criteria) and the boards and byes the arbiter proposes,
``check_pairing`` lists every rule the proposal breaks, as ``PairingCheck``s: the rule's stable
code, its severity (an ``error`` is refused unless the arbiter accepts it, a ``warning`` only
informs), the players concerned and a sentence. The rules:

- ``rematch``: two players meet again (every system; ``dutch``: C1, games actually played only,
  C.04.2 Art. 3; ``nearest``/``lim``: any earlier pairing, a forfeit included, a double forfeit
  not). Error.
- ``forbidden_pair``: two players the tournament keeps apart meet (``forbidden``: its listed
  pairs and, by ``avoid_same_team``, its teams); a hard pair is an error, a soft one a warning.
- ``repeated_bye``: the bye to a player who already had one. ``dutch``: always an error (C2,
  absolute). ``nearest``/``lim``: a warning while another player of the group has had none;
  none when everybody had one. Both systems give a second bye themselves when the look-ahead or
  the fallback search needs it, which is not searched again here: the bye order is their
  preference, not an absolute rule.
- ``absolute_criteria`` (``dutch``): C2 for a PAB to a player who has not had one but scored a
  win's points without playing (a forfeit win, a full-point bye); C3 for two players with the
  same absolute colour preference, neither a topscorer (Art. 1.8). Error.
- ``colour``: ``dutch``: a player whose colour difference goes beyond ±2, or who gets the same
  colour a third time in a row (C.04.1 f; not on a board of a topscorer in the last round),
  home being White as given. Error. ``nearest``/``lim``: home is not who ``colours.md`` seats
  at home. Warning (colours never decide who plays whom in those systems).
- ``score_difference``: the two players' points are not in the same or adjacent score groups of
  the round (a score group of the round lies strictly between them). Warning in every system:
  ``nearest`` pairs the nearest unplayed player whatever the points, ``lim`` and ``dutch``
  float players across groups when they must, so a wide gap is unusual but not forbidden.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from app.domain.colours import ColourRule, Seating, assign_colours
from app.domain.forbidden import PairConstraint, PairKind
from app.domain.types import GroupName, Pair, PlayerId, Role, Score, Side

__all__ = [
    "Board",
    "CheckRule",
    "CheckedPlayer",
    "PairingCheck",
    "RoundFacts",
    "Severity",
    "check_pairing",
    "expected_seating",
]


class CheckRule(StrEnum):
    """The rules a manual pairing is checked against, in the order they are listed."""

    REMATCH = "rematch"
    FORBIDDEN_PAIR = "forbidden_pair"
    REPEATED_BYE = "repeated_bye"
    ABSOLUTE_CRITERIA = "absolute_criteria"
    COLOUR = "colour"
    SCORE_DIFFERENCE = "score_difference"


class Severity(StrEnum):
    """How much a broken rule weighs: ``error`` refuses the pairing unless accepted,
    ``warning`` only informs."""

    ERROR = "error"
    """Refused unless the request accepts the rule."""
    WARNING = "warning"
    """Informs; never refused."""


@dataclass(frozen=True, slots=True)
class PairingCheck:
    """A rule broken by a pairing, the players concerned, and a sentence saying how."""

    rule: CheckRule
    severity: Severity
    players: tuple[PlayerId, ...]
    sentence: str


@dataclass(frozen=True, slots=True)
class Board:
    """A board proposed by hand: ``home`` is home (White in ``dutch``) as given."""

    home: PlayerId
    away: PlayerId


@dataclass(frozen=True, slots=True)
class CheckedPlayer:
    """A player of the round as the checks see them, before the round.

    ``rank`` is the place (0-based) in the pairing order of their group (standings order of the
    players of the round; ``dutch``: score, then pairing number). ``opponents`` the players met
    as the system counts meetings; ``byes`` the pairing byes had; ``roles`` the ``colours.md``
    history (index 0 is round 1); ``colours`` the ``dutch`` colours of the games played, in
    order (home is White); ``bye_eligible`` whether C2 lets them have the PAB.
    """

    id: PlayerId
    name: str
    group: GroupName | None
    score: Score
    rank: int
    opponents: frozenset[PlayerId]
    byes: int
    roles: tuple[Role | None, ...] = ()
    colours: tuple[Side, ...] = ()
    bye_eligible: bool = True


@dataclass(frozen=True, slots=True)
class RoundFacts:
    """The tournament before round ``number``: what its system declares (``fide_colours``:
    colours by C.04 and their absolute limits, else ``colours.md``; ``absolute_criteria``: C1–C3
    are absolute, as in ``dutch``), the players of the round (each in exactly one group,
    ``None`` without groups), whether it is the last Swiss round and the score above which a
    player is a topscorer in it (Art. 1.8: over half the maximum), and the colour lot of each
    group (``colours.md`` rule 4)."""

    fide_colours: bool
    absolute_criteria: bool
    number: int
    players: Mapping[PlayerId, CheckedPlayer]
    last_round: bool
    top_line: Score
    lot_home_to_better: Mapping[GroupName | None, bool]

    def topscorer(self, player: CheckedPlayer) -> bool:
        return self.last_round and 2 * player.score > self.top_line


def check_pairing(
    facts: RoundFacts,
    boards: Sequence[Board],
    byes: Sequence[PlayerId],
    *,
    forbidden: Collection[PairConstraint] = (),
) -> tuple[PairingCheck, ...]:
    """Every rule of the module's list that ``boards`` and ``byes`` break, rule by rule in
    ``CheckRule`` order, board by board. The players must all be in ``facts``; whether each is
    there exactly once is checked before (``manual_rounds``)."""
    checks: list[PairingCheck] = []
    checks += _rematches(facts, boards)
    checks += _forbidden(facts, boards, forbidden)
    checks += _repeated_byes(facts, byes)
    if facts.absolute_criteria:
        checks += _absolute_criteria(facts, boards, byes)
    checks += _fide_colours(facts, boards) if facts.fide_colours else _seating(facts, boards)
    checks += _score_differences(facts, boards, byes)
    return tuple(checks)


def _names(facts: RoundFacts, *players: PlayerId) -> str:
    return " and ".join(facts.players[p].name for p in players)


def _rematches(facts: RoundFacts, boards: Iterable[Board]) -> list[PairingCheck]:
    return [
        PairingCheck(
            CheckRule.REMATCH,
            Severity.ERROR,
            (b.home, b.away),
            f"{_names(facts, b.home, b.away)} have already met"
            + (" (C1: no two players meet twice)" if facts.absolute_criteria else ""),
        )
        for b in boards
        if b.away in facts.players[b.home].opponents
    ]


def _forbidden(
    facts: RoundFacts, boards: Iterable[Board], forbidden: Collection[PairConstraint]
) -> list[PairingCheck]:
    kept_apart = {frozenset(pair.players): pair.kind is PairKind.HARD for pair in forbidden}
    checks = []
    for b in boards:
        hard = kept_apart.get(frozenset((b.home, b.away)))
        if hard is None:
            continue
        kind = "must never be paired" if hard else "are paired only when nothing else works"
        checks.append(
            PairingCheck(
                CheckRule.FORBIDDEN_PAIR,
                Severity.ERROR if hard else Severity.WARNING,
                (b.home, b.away),
                f"{_names(facts, b.home, b.away)} {kind} (a {'hard' if hard else 'soft'} "
                "forbidden pair)",
            )
        )
    return checks


def _repeated_byes(facts: RoundFacts, byes: Iterable[PlayerId]) -> list[PairingCheck]:
    checks = []
    for pid in byes:
        player = facts.players[pid]
        if player.byes == 0:
            continue
        if facts.absolute_criteria:
            checks.append(
                PairingCheck(
                    CheckRule.REPEATED_BYE,
                    Severity.ERROR,
                    (pid,),
                    f"{player.name} has already had the pairing-allocated bye (C2: not twice)",
                )
            )
            continue
        without = [
            p
            for p in facts.players.values()
            if p.group == player.group and p.byes == 0 and p.id != pid
        ]
        if without:
            checks.append(
                PairingCheck(
                    CheckRule.REPEATED_BYE,
                    Severity.WARNING,
                    (pid,),
                    f"{player.name} has already had a bye while {len(without)} player(s) of "
                    f"the round have had none (the bye goes to a player without one first)",
                )
            )
    return checks


def _absolute_criteria(
    facts: RoundFacts, boards: Iterable[Board], byes: Iterable[PlayerId]
) -> list[PairingCheck]:
    """``dutch``: C2 beyond a repeated PAB, and C3."""
    checks = []
    for pid in byes:
        player = facts.players[pid]
        if player.byes == 0 and not player.bye_eligible:
            checks.append(
                PairingCheck(
                    CheckRule.ABSOLUTE_CRITERIA,
                    Severity.ERROR,
                    (pid,),
                    f"{player.name} has already scored a win's points without playing (C2: no "
                    "pairing-allocated bye then)",
                )
            )
    for b in boards:
        home, away = facts.players[b.home], facts.players[b.away]
        wanted = _absolute_preference(home.colours)
        if wanted is None or wanted is not _absolute_preference(away.colours):
            continue
        if facts.topscorer(home) or facts.topscorer(away):
            continue
        colour = "White" if wanted is Side.HOME else "Black"
        checks.append(
            PairingCheck(
                CheckRule.ABSOLUTE_CRITERIA,
                Severity.ERROR,
                (b.home, b.away),
                f"{_names(facts, b.home, b.away)} both have an absolute preference for "
                f"{colour} (C3: they may not meet)",
            )
        )
    return checks


def _absolute_preference(colours: Sequence[Side]) -> Side | None:
    """C.04.3 Art. 1.7.1: the colour a player must get (difference beyond ±1, or the same
    colour in the last two games); ``None`` when no preference is absolute."""
    difference = sum(1 if c is Side.HOME else -1 for c in colours)
    if difference > 1:
        return Side.AWAY
    if difference < -1:
        return Side.HOME
    if len(colours) >= 2 and colours[-1] is colours[-2]:
        return colours[-1].other
    return None


def _fide_colours(facts: RoundFacts, boards: Iterable[Board]) -> list[PairingCheck]:
    """C.04.1 f (in C.04.3 through C3 and Art. 5): after this round no colour difference
    beyond ±2 and no colour three times in a row, except on a board of a topscorer in the last
    round (C3 lets a topscorer meet a player with the same absolute preference, Art. 1.8)."""
    checks = []
    for b in boards:
        if facts.topscorer(facts.players[b.home]) or facts.topscorer(facts.players[b.away]):
            continue
        for pid, side in ((b.home, Side.HOME), (b.away, Side.AWAY)):
            player = facts.players[pid]
            colours = (*player.colours, side)
            difference = sum(1 if c is Side.HOME else -1 for c in colours)
            colour = "White" if side is Side.HOME else "Black"
            if abs(difference) > 2:
                broken = f"a colour difference of {difference:+d}"
            elif len(colours) >= 3 and colours[-1] is colours[-2] is colours[-3]:
                broken = f"{colour} three times in a row"
            else:
                continue
            checks.append(
                PairingCheck(
                    CheckRule.COLOUR,
                    Severity.ERROR,
                    (pid,),
                    f"{player.name} would have {broken} with {colour} on this board "
                    "(C.04.1 f: at most ±2, never three in a row)",
                )
            )
    return checks


def expected_seating(facts: RoundFacts, boards: Sequence[Board]) -> dict[Board, Seating]:
    """``nearest``/``lim``: how ``colours.md`` seats each board's two players, group by group,
    boards in the given order (rule 4's lot alternates along them)."""
    seated: dict[Board, Seating] = {}
    for group, lot in facts.lot_home_to_better.items():
        in_group = [b for b in boards if facts.players[b.home].group == group]
        order = sorted(
            (p for p in facts.players.values() if p.group == group), key=lambda p: p.rank
        )
        pairs = [_pair(facts, b) for b in in_group]
        seatings = assign_colours(
            pairs,
            pairing_order=[p.id for p in order],
            roles={p.id: p.roles for p in order},
            lot_home_to_better=lot,
        )
        seated.update(zip(in_group, seatings, strict=True))
    return seated


def _pair(facts: RoundFacts, board: Board) -> Pair:
    home, away = facts.players[board.home], facts.players[board.away]
    return Pair(home.id, away.id) if home.rank < away.rank else Pair(away.id, home.id)


_RULE_WORDS = {
    ColourRule.FEWER_HOME: "rule 1: fewer home games",
    ColourRule.MORE_AWAY: "rule 2: more away games",
    ColourRule.ALTERNATION: "rule 3: alternation",
    ColourRule.POSITION: "rule 4: positions",
    ColourRule.LOT: "rule 4: the lot",
}


def _seating(facts: RoundFacts, boards: Sequence[Board]) -> list[PairingCheck]:
    expected = expected_seating(facts, boards)
    checks = []
    for b in boards:
        seat = expected[b]
        if seat.home == b.home:
            continue
        checks.append(
            PairingCheck(
                CheckRule.COLOUR,
                Severity.WARNING,
                (b.home, b.away),
                f"colours.md seats {facts.players[seat.home].name} at home against "
                f"{facts.players[seat.away].name} ({_RULE_WORDS.get(seat.rule, seat.rule)})",
            )
        )
    return checks


def _score_differences(
    facts: RoundFacts, boards: Iterable[Board], byes: Iterable[PlayerId]
) -> list[PairingCheck]:
    in_round = [p for b in boards for p in (b.home, b.away)] + list(byes)
    scores: dict[GroupName | None, set[Score]] = {}
    for pid in in_round:
        player = facts.players[pid]
        scores.setdefault(player.group, set()).add(player.score)
    checks = []
    for b in boards:
        home, away = facts.players[b.home], facts.players[b.away]
        low, high = sorted((home.score, away.score))
        between = sorted(s for s in scores[home.group] if low < s < high)
        if not between:
            continue
        checks.append(
            PairingCheck(
                CheckRule.SCORE_DIFFERENCE,
                Severity.WARNING,
                (b.home, b.away),
                f"{_names(facts, b.home, b.away)} have {_points(home.score)} and "
                f"{_points(away.score)} points: {len(between)} score group(s) of the round lie "
                "between them",
            )
        )
    return checks


def _points(score: Score) -> str:
    return str(score // 2) if score % 2 == 0 else f"{score / 2:.1f}"
