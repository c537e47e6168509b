"""What the printed page, the live page and the CSV export show: a view of a ``Tournament``.

Everything here is derived from the domain on each call (standings, qualifiers, final ranking);
the renderers only lay it out. Scores stay exact half-points until ``points_text`` and
``points_number`` turn them into text. Words are English message ids marked with ``N_``: the
templates translate them (``app/pages/i18n.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from app.domain.formats import FinalPhaseKind, ResolvedFormat
from app.domain.matches import Match
from app.domain.standings import TIEBREAK_CRITERIA, StandingRow
from app.domain.tournament import Tournament
from app.domain.types import (
    DecidedBy,
    GroupName,
    PairingSystem,
    PlayerId,
    PointsTable,
    Score,
    Side,
    Stage,
    Status,
    Tiebreak,
)
from app.pages.bracket_view import (
    DoubleEliminationView,
    TopCutView,
    double_elimination_view,
    top_cut_view,
)
from app.pages.i18n import N_

STATUS_LABELS = {
    Status.REGISTRATION: N_("Registration"),
    Status.SWISS: N_("Swiss rounds"),
    Status.FINAL_PHASE: N_("Final phase"),
    Status.FINISHED: N_("Finished"),
}
CRITERION_LABELS = {
    "points": N_("points"),
    "buchholz": N_("Buchholz"),
    "median_buchholz": N_("median Buchholz"),
    "sonneborn_berger": N_("Sonneborn-Berger"),
    "progressive": N_("progressive score"),
    "direct_encounter": N_("direct encounter"),
    "goal_difference": N_("goal difference"),
    "goals_for": N_("goals for"),
    "start_number": N_("start number (lower first)"),
    "points_per_match": N_("points per match"),
}
TIEBREAK_LABELS = {
    Tiebreak.BUCHHOLZ: N_("Buchholz"),
    Tiebreak.GOALS: N_("goals"),
    Tiebreak.LIM: N_("Lim"),
    Tiebreak.SONNEBORN_BERGER: N_("Sonneborn-Berger"),
    Tiebreak.PROGRESSIVE: N_("progressive score"),
    Tiebreak.DIRECT_ENCOUNTER: N_("direct encounter"),
    Tiebreak.POINTS_PER_MATCH: N_("points per match"),
}
"""The name of each tiebreak choice on the pages (the API keeps its identifier)."""
FINAL_PHASE_LABELS = {
    FinalPhaseKind.SEMIFINALS: N_("semifinals, then the final and the third-place final"),
    FinalPhaseKind.FINAL: N_("the final, 1st v 2nd"),
    FinalPhaseKind.TOP_CUT: N_("a top cut, a knockout of the best of the Swiss"),
    FinalPhaseKind.DOUBLE_ELIMINATION: N_(
        "a double elimination of the best of the Swiss: out after two losses"
    ),
    FinalPhaseKind.NONE: N_("none"),
}
DECIDED_BY_LABELS = {
    DecidedBy.EXTRA_TIME: N_("after extra time"),
    DecidedBy.PENALTIES: N_("on penalties"),
    DecidedBy.GOLDEN_GOAL: N_("by golden goal"),
    DecidedBy.OTHER: N_("decided otherwise"),
}


def points_text(score: Score) -> str:
    """Half-points as printed: ``9``, ``4½``, ``½``."""
    sign = "-" if score < 0 else ""
    whole, half = divmod(abs(score), 2)
    if not half:
        return f"{sign}{whole}"
    return f"{sign}{whole}½" if whole else f"{sign}½"


def points_number(score: Score) -> str:
    """Half-points as a number for data: ``9``, ``4.5``, ``0.5`` (JSON-like, halves as .5)."""
    sign = "-" if score < 0 else ""
    whole, half = divmod(abs(score), 2)
    return f"{sign}{whole}.5" if half else f"{sign}{whole}"


def side_name(tournament: Tournament, players: tuple[PlayerId, ...]) -> str:
    """A side of a match by name: the player, or in DYP both partners (``Rossi & Neri``)."""
    return " & ".join(tournament.players[pid].name for pid in players)


def per_match_text(half_points: Fraction) -> str:
    """Points per match (DYP) as shown, to two decimals: ``2.33``."""
    return f"{float(half_points) / 2:.2f}"


def fraction_number(half_points: Fraction) -> str:
    """Exact half-points (Sonneborn-Berger has quarters) as a number: ``9``, ``4.5``, ``10.75``."""
    points = half_points / 2
    if points.denominator == 1:
        return str(points.numerator)
    return str(Decimal(points.numerator) / Decimal(points.denominator))


@dataclass(frozen=True, slots=True)
class Line:
    """One row of a standings table, with the player's name, start number and group, and a
    team entry's two players (doubles)."""

    row: StandingRow
    name: str
    start_number: int
    group: GroupName | None
    qualified: bool
    members: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class StandingsTable:
    """The standings of the whole tournament, or of one group (ranks within the group)."""

    group: GroupName | None
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class Competitor:
    """One side of a match as printed: name, seed label (``3``, ``A1``), goals, whether it won.

    ``goals`` is empty without a result; after a forfeit it is ``+`` (present) or ``−`` (absent).
    """

    name: str
    label: str
    goals: str
    won: bool
    absent: bool


@dataclass(frozen=True, slots=True)
class Board:
    """A printed match: a Swiss board or a final-phase match."""

    stage: Stage
    board: int
    group: GroupName | None
    home: Competitor
    away: Competitor
    score: str
    """``2–1``, or empty while there is no result or after a forfeit."""
    decided_by: str
    """A message id (``on penalties``), or empty."""
    forfeit: bool = False
    match_id: int | None = None
    """``None`` for a bracket slot not formed yet."""
    rematch: bool = False
    pending: bool = False
    """A bracket slot whose players are not known yet: the names say where they come from
    (message ids such as ``Winner SF1``, or seed labels such as ``A1``)."""


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    boards: tuple[Board, ...]
    byes: tuple[str, ...]
    rematches: tuple[str, ...]
    """The repeated pairs of a fallback round (or accepted in a round paired by hand), as
    ``"A – B"``; empty otherwise."""
    manual: bool = False
    """Paired by hand by the arbiter."""


@dataclass(frozen=True, slots=True)
class Bracket:
    """The final phase, every slot filled: played or pending matches, or placeholders.

    ``semifinals`` and ``third_place`` are empty and ``None`` when only the final is played.
    """

    semifinals: tuple[Board, ...]
    final: Board
    third_place: Board | None
    top_cut: TopCutView | None = None
    """A top cut, drawn round by round (``bracket_view``); the fields above are then unused."""
    double_elimination: DoubleEliminationView | None = None
    """A double elimination, drawn as the top cut is, side by side (``bracket_view``)."""


@dataclass(frozen=True, slots=True)
class Place:
    place: int
    name: str
    start_number: int
    group: GroupName | None
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class PrintView:
    """Everything the printed page shows, in the order it shows it."""

    status: Status
    status_label: str
    tiebreak: Tiebreak
    tiebreak_label: str
    criteria: tuple[str, ...]
    show_buchholz: bool
    show_per_match: bool
    """DYP: the points per match column, its second criterion."""
    explained: bool
    """The rounds have explanations (not DYP's): the live page's boards open them."""
    format: ResolvedFormat
    final_phase_label: str
    player_count: int
    pairing: PairingSystem
    groups_assignment: str | None
    rounds_generated: int
    early_final_phase: bool
    """The final phase started before the format's last Swiss round."""
    points: PointsTable
    tables: tuple[StandingsTable, ...]
    qualifiers_final: bool
    """Whether the highlighted qualifiers are fixed (the final phase has started)."""
    rounds: tuple[RoundView, ...]
    bracket: Bracket | None
    ranking: tuple[Place, ...]


def standings_tables(tournament: Tournament) -> tuple[StandingsTable, ...]:
    """One table without groups; with groups, group A then group B, ranked within each."""
    qualified = tournament.qualified()
    groups: list[GroupName | None] = (
        [GroupName("A"), GroupName("B")] if tournament.format.groups else [None]
    )
    tables = []
    for group in groups:
        lines = []
        for row in tournament.standings(group):
            player = tournament.players[row.player_id]
            lines.append(
                Line(
                    row,
                    player.name,
                    player.start_number,
                    player.group,
                    row.player_id in qualified,
                    player.members,
                )
            )
        tables.append(StandingsTable(group, tuple(lines)))
    return tuple(tables)


def build_view(tournament: Tournament) -> PrintView:
    """The printed page's content for ``tournament`` as it stands now."""
    settings = tournament.settings
    tiebreak = settings.tiebreak_in_use
    tables = standings_tables(tournament)
    seeds = _seed_labels(tables)
    fmt = tournament.planned_format  # the rounds planned, also after an early final phase
    generated = len(tournament.rounds)
    return PrintView(
        status=tournament.status,
        status_label=STATUS_LABELS[tournament.status],
        tiebreak=tiebreak,
        tiebreak_label=TIEBREAK_LABELS[tiebreak],
        criteria=tuple(CRITERION_LABELS[c] for c in TIEBREAK_CRITERIA[tiebreak]),
        show_buchholz=tiebreak not in (Tiebreak.GOALS, Tiebreak.POINTS_PER_MATCH),
        show_per_match=tiebreak is Tiebreak.POINTS_PER_MATCH,
        explained=not tournament.drawn_partners,
        format=fmt,
        final_phase_label=FINAL_PHASE_LABELS[fmt.final_phase],
        player_count=len(tournament.players),
        pairing=settings.pairing,
        groups_assignment=(
            settings.groups.assignment.value if fmt.groups and settings.groups else None
        ),
        rounds_generated=generated,
        early_final_phase=tournament.final_phase_started and generated < fmt.swiss_rounds,
        points=settings.points,
        tables=tables,
        qualifiers_final=tournament.final_phase_started,
        rounds=tuple(_round_view(tournament, r.number, seeds) for r in tournament.rounds),
        bracket=_bracket(tournament, seeds),
        ranking=_ranking(tournament),
    )


def _seed_labels(tables: tuple[StandingsTable, ...]) -> dict[PlayerId, str]:
    """Each player's place in the standings as a short label: ``3`` or, with groups, ``A2``."""
    return {
        line.row.player_id: f"{table.group or ''}{line.row.rank}"
        for table in tables
        for line in table.lines
    }


def _board(
    tournament: Tournament, match: Match, seeds: dict[PlayerId, str], *, rematch: bool = False
) -> Board:
    result = match.result
    winner = match.winner
    sides = []
    for players, side, goals in (
        (match.home_players, Side.HOME, result.home_goals if result else None),
        (match.away_players, Side.AWAY, result.away_goals if result else None),
    ):
        pid = players[0]
        absent = result is not None and result.forfeit is not None and result.forfeit.absent(side)
        text = "" if goals is None else str(goals)
        if result is not None and result.forfeit is not None:
            text = "−" if absent else "+"
        name = side_name(tournament, players)
        sides.append(Competitor(name, seeds.get(pid, ""), text, winner == pid, absent))
    forfeit = result is not None and result.forfeit is not None
    score = ""
    if result is not None and not forfeit:
        score = f"{result.home_goals}–{result.away_goals}"
    decided_by = ""
    if result is not None and result.decided_by is not None:
        decided_by = DECIDED_BY_LABELS[result.decided_by]
    return Board(
        stage=match.stage,
        board=match.board,
        group=match.group,
        home=sides[0],
        away=sides[1],
        score=score,
        decided_by=decided_by,
        forfeit=forfeit,
        match_id=match.id,
        rematch=rematch,
    )


def _round_view(tournament: Tournament, number: int, seeds: dict[PlayerId, str]) -> RoundView:
    swiss_round = tournament.rounds[number - 1]
    repeated = {frozenset((p.higher, p.lower)) for p in swiss_round.rematch_pairs}
    boards = tuple(
        _board(tournament, m, seeds, rematch=frozenset((m.home, m.away)) in repeated)
        for m in tournament.round_matches(number)
    )
    names = tournament.players
    return RoundView(
        number=number,
        boards=boards,
        byes=tuple(names[pid].name for pid in swiss_round.byes),
        rematches=tuple(
            f"{names[p.higher].name} – {names[p.lower].name}" for p in swiss_round.rematch_pairs
        ),
        manual=swiss_round.manual,
    )


def _bracket(tournament: Tournament, seeds: dict[PlayerId, str]) -> Bracket | None:
    """The bracket as it stands: matches once formed, placeholders naming their origin before."""
    kind = tournament.format.final_phase
    if kind is FinalPhaseKind.NONE:
        return None
    if kind is FinalPhaseKind.TOP_CUT:
        view = top_cut_view(tournament, decided_by_labels=DECIDED_BY_LABELS)
        return Bracket((), _slot(Stage.FINAL, 1, "", ""), None, top_cut=view)
    if kind is FinalPhaseKind.DOUBLE_ELIMINATION:
        double = double_elimination_view(tournament, decided_by_labels=DECIDED_BY_LABELS)
        return Bracket((), _slot(Stage.FINAL, 1, "", ""), None, double_elimination=double)
    formed: dict[Stage, Board] = {}
    semifinals = []
    for match in tournament.final_matches():
        board = _board(tournament, match, seeds)
        if match.stage is Stage.SEMIFINAL:
            semifinals.append(board)
        else:
            formed[match.stage] = board
    if kind is FinalPhaseKind.FINAL:
        final = formed.get(Stage.FINAL) or _slot(Stage.FINAL, 1, N_("1st"), N_("2nd"))
        return Bracket((), final, None)
    if not semifinals:
        crossed = tournament.format.groups
        semifinals = [
            _slot(Stage.SEMIFINAL, 1, *(("A1", "B2") if crossed else (N_("1st"), N_("4th")))),
            _slot(Stage.SEMIFINAL, 2, *(("B1", "A2") if crossed else (N_("2nd"), N_("3rd")))),
        ]
    return Bracket(
        tuple(semifinals),
        formed.get(Stage.FINAL) or _slot(Stage.FINAL, 1, N_("Winner SF1"), N_("Winner SF2")),
        formed.get(Stage.THIRD_PLACE)
        or _slot(Stage.THIRD_PLACE, 2, N_("Loser SF1"), N_("Loser SF2")),
    )


def _slot(stage: Stage, board: int, home: str, away: str) -> Board:
    def side(origin: str) -> Competitor:
        return Competitor(origin, "", "", won=False, absent=False)

    return Board(stage, board, None, side(home), side(away), "", "", pending=True)


def _ranking(tournament: Tournament) -> tuple[Place, ...]:
    order = tournament.final_ranking()
    if order is None:
        return ()
    players = tournament.players
    return tuple(
        Place(
            place,
            players[pid].name,
            players[pid].start_number,
            players[pid].group,
            players[pid].withdrawn,
        )
        for place, pid in enumerate(order, start=1)
    )
