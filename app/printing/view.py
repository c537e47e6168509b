"""What the printed page and the CSV export show: a view of a ``Tournament``, read-only.

Everything here is derived from the domain on each call (standings, qualifiers, final ranking);
the renderers only lay it out. Scores stay exact half-points until ``points_text`` and
``points_number`` turn them into text.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.formats import FinalPhaseKind, ResolvedFormat
from app.domain.matches import Match
from app.domain.standings import TIEBREAK_CRITERIA, StandingRow
from app.domain.tournament import Tournament
from app.domain.types import DecidedBy, GroupName, PlayerId, Score, Side, Stage, Status, Tiebreak

STATUS_LABELS = {
    Status.REGISTRATION: "Registration",
    Status.SWISS: "Swiss rounds",
    Status.FINAL_PHASE: "Final phase",
    Status.FINISHED: "Finished",
}
CRITERION_LABELS = {
    "points": "points",
    "buchholz": "Buchholz",
    "median_buchholz": "median Buchholz",
    "goal_difference": "goal difference",
    "goals_for": "goals for",
    "start_number": "start number (lower first)",
}
FINAL_PHASE_LABELS = {
    FinalPhaseKind.SEMIFINALS: "semifinals, then the final and the third-place final",
    FinalPhaseKind.FINAL: "the final, 1st v 2nd",
    FinalPhaseKind.NONE: "none",
}
DECIDED_BY_LABELS = {
    DecidedBy.EXTRA_TIME: "after extra time",
    DecidedBy.PENALTIES: "on penalties",
    DecidedBy.GOLDEN_GOAL: "by golden goal",
    DecidedBy.OTHER: "decided otherwise",
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


@dataclass(frozen=True, slots=True)
class Line:
    """One row of a standings table, with the player's name, start number and group."""

    row: StandingRow
    name: str
    start_number: int
    group: GroupName | None
    qualified: bool


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
    """``2–1``, ``forfeit``, or empty while there is no result."""
    decided_by: str
    rematch: bool = False
    pending: bool = False
    """A bracket slot whose players are not known yet: the names say where they come from."""


@dataclass(frozen=True, slots=True)
class RoundView:
    number: int
    boards: tuple[Board, ...]
    byes: tuple[str, ...]
    rematches: tuple[str, ...]
    """The repeated pairs of a fallback round, as ``"A – B"``; empty otherwise."""


@dataclass(frozen=True, slots=True)
class Bracket:
    """The final phase, every slot filled: played or pending matches, or placeholders.

    ``semifinals`` and ``third_place`` are empty and ``None`` when only the final is played.
    """

    semifinals: tuple[Board, ...]
    final: Board
    third_place: Board | None


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

    status: str
    tiebreak: Tiebreak
    criteria: tuple[str, ...]
    show_buchholz: bool
    format: ResolvedFormat
    format_lines: tuple[str, ...]
    points_line: str
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
                    row, player.name, player.start_number, player.group, row.player_id in qualified
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
    return PrintView(
        status=STATUS_LABELS[tournament.status],
        tiebreak=tiebreak,
        criteria=tuple(CRITERION_LABELS[c] for c in TIEBREAK_CRITERIA[tiebreak]),
        show_buchholz=tiebreak is not Tiebreak.GOALS,
        format=tournament.format,
        format_lines=_format_lines(tournament),
        points_line=(
            f"win {points_text(settings.points.win)} · draw {points_text(settings.points.draw)}"
            f" · loss {points_text(settings.points.loss)} · bye {points_text(settings.points.bye)}"
        ),
        tables=tables,
        qualifiers_final=tournament.final_phase_started,
        rounds=tuple(_round_view(tournament, r.number, seeds) for r in tournament.rounds),
        bracket=_bracket(tournament, seeds),
        ranking=_ranking(tournament),
    )


def _format_lines(tournament: Tournament) -> tuple[str, ...]:
    fmt = tournament.planned_format
    settings = tournament.settings
    rounds = f"{fmt.swiss_rounds} round{'s' if fmt.swiss_rounds != 1 else ''}"
    played = len(tournament.rounds)
    if tournament.final_phase_started and played < fmt.swiss_rounds:
        rounds += f" ({played} played: final phase started early)"
    elif played:
        rounds += f" ({played} generated)"
    lines = [
        f"Format: {fmt.preset.value}, {len(tournament.players)} players",
        f"Swiss: {rounds}, pairing {settings.pairing.value}",
        f"Final phase: {FINAL_PHASE_LABELS[fmt.final_phase]}",
    ]
    if fmt.groups and settings.groups is not None:
        lines.append(
            f"Groups: A and B ({settings.groups.assignment.value}), crossed semifinals A1 v B2,"
            " B1 v A2"
        )
    return tuple(lines)


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
    for pid, side, goals in (
        (match.home, Side.HOME, result.home_goals if result else None),
        (match.away, Side.AWAY, result.away_goals if result else None),
    ):
        absent = result is not None and result.forfeit is side
        text = "" if goals is None else str(goals)
        if result is not None and result.forfeit is not None:
            text = "−" if absent else "+"
        name = tournament.players[pid].name
        sides.append(Competitor(name, seeds.get(pid, ""), text, winner == pid, absent))
    if result is None:
        score = ""
    elif result.forfeit is not None:
        score = "forfeit"
    else:
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
    )


def _bracket(tournament: Tournament, seeds: dict[PlayerId, str]) -> Bracket | None:
    """The bracket as it stands: matches once formed, placeholders naming their origin before."""
    kind = tournament.format.final_phase
    if kind is FinalPhaseKind.NONE:
        return None
    formed: dict[Stage, Board] = {}
    semifinals = []
    for match in tournament.final_matches():
        board = _board(tournament, match, seeds)
        if match.stage is Stage.SEMIFINAL:
            semifinals.append(board)
        else:
            formed[match.stage] = board
    if kind is FinalPhaseKind.FINAL:
        return Bracket((), formed.get(Stage.FINAL) or _slot(Stage.FINAL, 1, "1st", "2nd"), None)
    if not semifinals:
        crossed = tournament.format.groups
        semifinals = [
            _slot(Stage.SEMIFINAL, 1, *(("A1", "B2") if crossed else ("1st", "4th"))),
            _slot(Stage.SEMIFINAL, 2, *(("B1", "A2") if crossed else ("2nd", "3rd"))),
        ]
    return Bracket(
        tuple(semifinals),
        formed.get(Stage.FINAL) or _slot(Stage.FINAL, 1, "Winner SF1", "Winner SF2"),
        formed.get(Stage.THIRD_PLACE) or _slot(Stage.THIRD_PLACE, 2, "Loser SF1", "Loser SF2"),
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
