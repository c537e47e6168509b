"""How the command shows things to a person: Rich tables and one-line event summaries."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from rich.table import Table

from svizzera_client.events import (
    ByeCancelledEvent,
    ByeRequestedEvent,
    ClockEndedEvent,
    ClockPausedEvent,
    ClockResumedEvent,
    ClockStartedEvent,
    ClubEventEnvelope,
    EventEnvelope,
    FinalPhaseStartedEvent,
    ForbiddenPairAddedEvent,
    ForbiddenPairRemovedEvent,
    PlayerAddedEvent,
    PlayerUpdatedEvent,
    PlayerWithdrawnEvent,
    RatingUpdatedEvent,
    ReportClaimedEvent,
    ReportConfirmedEvent,
    ReportDisputedEvent,
    ResultClearedEvent,
    ResultCorrectedEvent,
    ResultRecordedEvent,
    RoundGeneratedEvent,
    RoundUndoneEvent,
    SeasonDeletedEvent,
    SeasonUpdatedEvent,
    TournamentCreatedEvent,
    TournamentFinishedEvent,
)
from svizzera_client.models import (
    BoardClaimsRead,
    BracketRead,
    BracketSlotRead,
    CheckRead,
    ClockRead,
    FinalPhaseRead,
    ForbiddenPairRead,
    MatchRead,
    PlaceRead,
    PlayerRead,
    ResultRead,
    RoundDifferenceRead,
    RoundExplanationRead,
    RoundRead,
    SideClaimRead,
    StandingsRead,
)

Names = Mapping[int, str]


def side_names(names: Names, players: Iterable[int]) -> str:
    """A side of a match by name: the player, or in DYP both partners (``Rossi & Neri``)."""
    return " & ".join(names.get(pid, f"#{pid}") for pid in players)


def sides_text(names: Names, m: MatchRead) -> str:
    """``Rossi – Bianchi``, or in DYP ``Rossi & Neri – Bianchi & Verdi``."""
    return f"{side_names(names, m.home_players)} – {side_names(names, m.away_players)}"


STAGES = {
    "swiss": "",
    "round_of_64": "round of 64",
    "round_of_32": "round of 32",
    "round_of_16": "round of 16",
    "quarterfinal": "quarterfinal",
    "semifinal": "semifinal",
    "final": "final",
    "third_place": "3rd place",
    **{f"winners_round_{n}": f"winners' round {n}" for n in range(1, 5)},
    **{f"losers_round_{n}": f"losers' round {n}" for n in range(1, 7)},
    "grand_final": "grand final",
    "grand_final_reset": "grand final reset (if needed)",
}


def names_of(players: Iterable[PlayerRead]) -> dict[int, str]:
    return {p.id: p.name for p in players}


def result_text(result: ResultRead | None) -> str:
    if result is None:
        return ""
    if result.forfeit == "both":
        return f"{result.home}–{result.away} (neither side showed)"
    if result.forfeit is not None:
        return f"{result.home}–{result.away} ({result.forfeit} did not show)"
    score = f"{result.home}–{result.away}"
    if result.winner is not None and result.home == result.away:
        how = f", {result.decided_by.replace('_', ' ')}" if result.decided_by else ""
        return f"{score} ({result.winner} wins{how})"
    return score


def players_table(players: Iterable[PlayerRead]) -> Table:
    """Start number and name; the rating and group columns where any player has one."""
    players = list(players)
    rated = any(p.rating is not None for p in players)
    grouped = any(p.group for p in players)
    table = Table("No.", "Name", title="Players")
    if rated:
        table.add_column("Rating", justify="right")
    if grouped:
        table.add_column("Group")
    for p in players:
        row = [str(p.start_number), p.name]
        row += ["" if p.rating is None else str(p.rating)] if rated else []
        row += [p.group or ""] if grouped else []
        table.add_row(*row)
    return table


def forbidden_table(pairs: Iterable[ForbiddenPairRead], names: Names) -> Table:
    """Id, the two players and the kind of each forbidden pair."""
    table = Table("Id", "Players", "Kind", title="Forbidden pairs")
    for pair in pairs:
        players = " – ".join(names.get(p, f"#{p}") for p in pair.players)
        table.add_row(str(pair.id), players, pair.kind)
    return table


def claims_table(boards: Iterable[BoardClaimsRead], names: Names) -> Table:
    """Each board players reported and nobody settled: its players, state and both claims."""
    table = Table(
        "Match", "Round", "Board", "Players", "State", "Home says", "Away says", title="Claims"
    )

    def said(claim: SideClaimRead | None) -> str:
        return "" if claim is None else f"{claim.home}–{claim.away}"

    for b in boards:
        m = b.match
        players = sides_text(names, m)
        table.add_row(
            str(m.id),
            str(m.round),
            str(m.board),
            players,
            b.state,
            said(b.home_claim),
            said(b.away_claim),
        )
    return table


def check_in_table(players: Iterable[PlayerRead]) -> Table:
    table = Table("Id", "No.", "Name", "Checked in", title="Check-in for round 1")
    for p in players:
        table.add_row(str(p.id), str(p.start_number), p.name, "✓" if p.checked_in else "")
    return table


def matches_table(matches: Iterable[MatchRead], names: Names, *, title: str) -> Table:
    """Board, home, away (White, Black for ``dutch``) and the result of each match (the stage
    too in the final phase)."""
    matches = list(matches)
    final_phase = any(m.stage != "swiss" for m in matches)
    grouped = any(m.group for m in matches)
    table = Table(title=title)
    if final_phase:
        table.add_column("Stage")
    table.add_column("Board", justify="right")
    if grouped:
        table.add_column("Group")
    chess = any(m.white is not None for m in matches)
    for column in ("White", "Black", "Result") if chess else ("Home", "Away", "Result"):
        table.add_column(column)
    for m in matches:
        row = [STAGES[m.stage]] if final_phase else []
        row.append(str(m.board))
        if grouped:
            row.append(m.group or "")
        row += [side_names(names, m.home_players), side_names(names, m.away_players)]
        row.append(result_text(m.result))
        table.add_row(*row)
    return table


def round_table(round_: RoundRead, names: Names) -> Table:
    table = matches_table(round_.matches, names, title=f"Round {round_.number}")
    notes = []
    if round_.byes:
        notes.append("bye: " + ", ".join(names.get(p, f"#{p}") for p in round_.byes))
    if round_.rematches:
        notes.append("fallback round: some pairs meet again")
    table.caption = "; ".join(notes) or None
    return table


def explanation_table(explanation: RoundExplanationRead) -> Table:
    """Each board and bye with the sentences of the steps that placed it; the round's own
    steps first."""
    table = Table(title=f"Why round {explanation.round} is paired so ({explanation.system})")
    table.add_column("Bd", justify="right")
    table.add_column("Players")
    table.add_column("Why")
    if explanation.steps:
        table.add_row("", "", "\n".join(step.text for step in explanation.steps))
    for placement in explanation.placements:
        table.add_row(
            "bye" if placement.board is None else str(placement.board),
            " – ".join(p.name for p in placement.players),
            "\n".join(step.text for step in placement.steps),
        )
    return table


def difference_table(difference: RoundDifferenceRead, names: Names) -> Table:
    """A differing round's boards side by side: as recorded, as the system pairs them."""
    table = Table(
        "Board", "Recorded", "System", title=f"Round {difference.round} differs", show_lines=False
    )

    def board(home: int, away: int) -> str:
        return f"{names.get(home, f'#{home}')} – {names.get(away, f'#{away}')}"

    system = difference.system.boards if difference.system is not None else []
    for i in range(max(len(difference.recorded.boards), len(system))):
        ours = difference.recorded.boards[i] if i < len(difference.recorded.boards) else None
        theirs = system[i] if i < len(system) else None
        table.add_row(
            str(i + 1),
            "" if ours is None else board(ours.home, ours.away),
            "" if theirs is None else board(theirs.home, theirs.away),
        )
    notes = []
    if difference.recorded.byes or (difference.system and difference.system.byes):
        theirs_bye = difference.system.byes if difference.system is not None else []
        notes.append(
            "bye: "
            + (", ".join(names.get(p, f"#{p}") for p in difference.recorded.byes) or "none")
            + " / "
            + (", ".join(names.get(p, f"#{p}") for p in theirs_bye) or "none")
        )
    if difference.swapped_colours:
        notes.append(
            "colours swapped: "
            + ", ".join(board(b.home, b.away) for b in difference.swapped_colours)
        )
    if difference.refusal:
        notes.append(f"the system finds no pairing: {difference.refusal}")
    table.caption = "; ".join(notes) or None
    return table


def check_summary(check: CheckRead) -> str:
    line = (
        f"{check.name}: {check.rounds_checked} of {check.rounds} rounds checked by "
        f"{check.pairing}, {check.rounds_differing} differ"
    )
    if check.unchecked_from is not None:
        line += f" (from round {check.unchecked_from} on: a result is missing before it)"
    return line + "."


CHESS_COLUMNS = {
    "sonneborn_berger": ("S-B",),
    "progressive": ("Progr.",),
    "direct_encounter": ("Direct",),
    "points_per_match": ("Pts/M",),
}
"""The column of the tiebreak in use, between the points and Buchholz, when it is one of these
(DYP's points per match: no Buchholz column, DYP has none)."""


def standings_table(standings: StandingsRead) -> Table:
    title = f"Standings after round {standings.round}"
    if standings.group:
        title += f", group {standings.group}"
    table = Table(title=title, caption="order: " + ", ".join(standings.criteria))
    grouped = any(r.group for r in standings.rows) and standings.group is None
    table.add_column("#", justify="right")
    table.add_column("Name")
    if grouped:
        table.add_column("Group")
    chosen = CHESS_COLUMNS.get(standings.tiebreak)
    buchholz = standings.tiebreak != "points_per_match"
    columns = ("Pl", "W", "D", "L", "Goals", "Pts", *(chosen or ()))
    columns += ("Buchholz", "Q") if buchholz else ("Q",)
    for column in columns:
        table.add_column(column, justify="right")
    for r in standings.rows:
        name = f"{r.name} (withdrawn)" if r.withdrawn else r.name
        if r.members:
            name += "\n" + " · ".join(r.members)
        row = [str(r.rank), name] + ([r.group or ""] if grouped else [])
        row += [str(r.played), str(r.wins), str(r.draws), str(r.losses)]
        row += [f"{r.goals_for}:{r.goals_against}", str(r.points)]
        if chosen is not None:
            value = getattr(r, standings.tiebreak)
            row.append("" if value is None else str(value))
        if buchholz:
            row.append(str(r.buchholz))
        row.append("✓" if r.qualified else "")
        table.add_row(*row)
    return table


def ranking_table(ranking: Iterable[PlaceRead]) -> Table:
    table = Table("Place", "Name", title="Final ranking")
    for place in ranking:
        table.add_row(str(place.place), place.name)
    return table


def final_phase_tables(final_phase: FinalPhaseRead, names: Names) -> list[Table]:
    tables = [matches_table(final_phase.matches, names, title="Final phase")]
    if final_phase.final_ranking:
        tables.append(ranking_table(final_phase.final_ranking))
    return tables


def clock_time(ms: int) -> str:
    """Milliseconds left as a clock shows them, whole seconds rounded up: ``1:05:00``,
    ``25:00``, ``0:59``, ``0:00`` (only when the time is up)."""
    seconds = -(-ms // 1000)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def clock_line(clock: ClockRead) -> str:
    """``Round 3: running, 24:59 left`` (``time is up`` at 0; ``no round time set``)."""
    if clock.remaining_ms is None:
        return f"Round {clock.round}: not started, no round time set"
    state = clock.state.replace("_", " ")
    left = "time is up" if clock.time_up else f"{clock_time(clock.remaining_ms)} left"
    return f"Round {clock.round}: {state}, {left}"


def bracket_tables(bracket: BracketRead) -> list[Table]:
    """One table per bracket round: each match's number, board and its two slots (the player
    once known, else where the player comes from), with the score once played."""
    tables = []
    for bracket_round in bracket.rounds:
        title = STAGES[bracket_round.stage].capitalize() or f"Round {bracket_round.number}"
        table = Table("Match", "Board", "Upper", "Score", "Lower", title=title)
        for m in bracket_round.matches:
            upper, lower = m.slots
            score = f"{_goals(upper)}–{_goals(lower)}" if upper.goals is not None else ""
            if m.stage == "third_place":
                table.add_row("", "", "3rd place:", "", "")
            if m.skipped:
                table.add_row(str(m.number), str(m.board), "(not needed)", "", "")
                continue
            table.add_row(str(m.number), str(m.board), _slot(upper), score, _slot(lower))
        tables.append(table)
    return tables


def _slot(slot: BracketSlotRead) -> str:
    if slot.name is None:
        return f"({slot.label})"
    mark = " ✓" if slot.won else ""
    return f"{slot.name} [{slot.player_seed}]{mark}"


def _goals(slot: BracketSlotRead) -> str:
    return "" if slot.goals is None else str(slot.goals)


def event_line(event: EventEnvelope, names: Names) -> str:
    """One line for a person following the tournament: ``#7 result.recorded: board 3 …``."""
    summary = _summary(event, names)
    return f"#{event.id} {event.type}: {summary}" if summary else f"#{event.id} {event.type}"


def _summary(event: EventEnvelope, names: Names) -> str:
    match event:
        case TournamentCreatedEvent(data=data):
            return f"{data.tournament.name}, {data.tournament.player_count} players"
        case PlayerAddedEvent(data=data) | PlayerWithdrawnEvent(data=data):
            return data.player.name
        case PlayerUpdatedEvent(data=data):
            checked_in = " (checked in)" if data.player.checked_in else ""
            return f"{data.player.name}{checked_in}"
        case ByeRequestedEvent(data=data):
            return f"{data.player.name} skips round {data.round} ({data.kind} bye)"
        case ByeCancelledEvent(data=data):
            return f"{data.player.name} plays round {data.round} again"
        case ForbiddenPairAddedEvent(data=data):
            return f"{data.kind} forbidden pair {data.forbidden_pair_id} listed"
        case ForbiddenPairRemovedEvent(data=data):
            return f"forbidden pair {data.forbidden_pair_id} taken off the list"
        case RoundGeneratedEvent(data=data):
            return f"round {data.round.number}, {data.round.match_count} matches"
        case RoundUndoneEvent(data=data):
            return f"round {data.round.number} taken back"
        case (
            ClockStartedEvent(data=data)
            | ClockPausedEvent(data=data)
            | ClockResumedEvent(data=data)
            | ClockEndedEvent(data=data)
        ):
            return clock_line(data.clock)
        case (
            ResultRecordedEvent(data=data)
            | ResultCorrectedEvent(data=data)
            | ResultClearedEvent(data=data)
        ):
            m = data.match
            where = f"round {m.round}" if m.stage == "swiss" else STAGES[m.stage]
            score = result_text(m.result) or "cleared"
            return f"{where}, board {m.board}: {sides_text(names, m)} {score}"
        case ReportClaimedEvent(data=data):
            return f"round {data.round}, board {data.board}: {data.side} claimed a result"
        case ReportConfirmedEvent(data=data):
            return f"round {data.round}, board {data.board}: {data.side} confirmed it"
        case ReportDisputedEvent(data=data):
            return f"round {data.round}, board {data.board}: disputed, the organizer decides"
        case FinalPhaseStartedEvent(data=data):
            qualifiers = ", ".join(names.get(p, f"#{p}") for p in data.final_phase.qualifiers)
            return f"qualified: {qualifiers}"
        case TournamentFinishedEvent(data=data):
            return ", ".join(f"{p.place}. {p.name}" for p in data.podium)
    return ""


def club_event_line(event: ClubEventEnvelope) -> str:
    """One line for a person following the club: ``#3 rating.updated: tournament …``."""
    match event:
        case RatingUpdatedEvent(data=data) if data.tournament_id is not None:
            summary = f"tournament {data.tournament_id} rated, {data.players} ratings moved"
        case RatingUpdatedEvent(data=data):
            summary = f"{data.tournaments} tournaments rated again, {data.players} ratings moved"
        case SeasonUpdatedEvent(data=data) if data.tournament_id is not None:
            summary = f"season {data.season_id}: tournament {data.tournament_id}"
        case SeasonUpdatedEvent(data=data) if data.club_player_id is not None:
            summary = f"season {data.season_id}: register entry {data.club_player_id} merged"
        case SeasonUpdatedEvent(data=data):
            summary = f"season {data.season_id}: {', '.join(data.changed or [])} changed"
        case SeasonDeletedEvent(data=data):
            summary = f"season {data.season_id} deleted, {data.tournaments} tournaments left it"
        case _:
            return f"#{event.id} {event.type}"
    return f"#{event.id} {event.type}: {summary}"
