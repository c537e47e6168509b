"""Domain state and table rows turned into read models (``app.read_models``).

Shared by the routers (response bodies) and the event outbox (event data), so an event carries
exactly the shapes the REST API answers."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Protocol

from app import read_models as s
from app.domain import chess
from app.domain.checker import CheckedPairing, CheckReport
from app.domain.colours import ColourRule
from app.domain.forbidden import ForbiddenPair
from app.domain.formats import FinalPhaseKind, FormatPreset
from app.domain.matches import Match, SwissRound
from app.domain.pairing_checks import PairingCheck
from app.domain.standings import TIEBREAK_CRITERIA
from app.domain.tournament import Tournament
from app.domain.types import GroupName, PairingSystem, Player, PlayerId, Status, Tiebreak
from app.services.storage import settings_from_columns


def aware(at: datetime) -> datetime:
    """SQLite gives naive datetimes back; every time is UTC."""
    return at if at.tzinfo is not None else at.replace(tzinfo=UTC)


class Summary(Protocol):
    """A tournament row with what a read adds to it (``services.tournaments.summaries``)."""

    @property
    def row(self) -> Any: ...
    @property
    def player_count(self) -> int: ...
    @property
    def last_event_id(self) -> int: ...
    @property
    def playing(self) -> int: ...


def tournament(summary: Summary) -> s.TournamentRead:
    """A tournament from its row alone (the derived columns are kept by every write)."""
    row = summary.row
    settings = settings_from_columns(row)
    tiebreak = settings.tiebreak_in_use
    return s.TournamentRead(
        id=row.id,
        name=row.name,
        club_id=row.club_id,
        season_id=row.season_id,
        status=Status(row.status),
        pairing=PairingSystem(row.pairing),
        tiebreak=tiebreak,
        tiebreak_criteria=list(TIEBREAK_CRITERIA[tiebreak]),
        points=s.PointsTableSchema(
            win=s.points_number(row.points_win),
            draw=s.points_number(row.points_draw),
            loss=s.points_number(row.points_loss),
            bye=s.points_number(row.points_bye),
        ),
        format=s.FormatRead(
            preset=FormatPreset(row.format_preset),
            swiss_rounds=row.resolved_swiss_rounds,
            final_phase=FinalPhaseKind(row.resolved_final_phase),
            groups=row.resolved_groups or None,
        ),
        settings=s.SettingsRead(
            tiebreak=Tiebreak(row.tiebreak) if row.tiebreak else None,
            swiss_rounds=row.swiss_rounds,
            final_phase=FinalPhaseKind(row.final_phase) if row.final_phase else None,
            top_cut_size=settings.top_cut_size,
            third_place=settings.third_place,
            grand_final_reset=settings.grand_final_reset,
            groups=s.GroupsSchema(**row.groups) if row.groups else None,
            initial_colour=settings.initial_colour,
            allowed_byes=sorted(settings.allowed_byes)
            if settings.allowed_byes is not None
            else None,
        ),
        initial_colour=chess.initial_colour(settings.initial_colour, settings.seed)
        if settings.pairing is PairingSystem.DUTCH
        else None,
        allowed_byes=sorted(settings.byes_allowed),
        avoid_same_team=settings.avoid_same_team,
        pair_checked_in_only=settings.pair_checked_in_only,
        entry=settings.entry,
        round_duration=settings.round_duration,
        player_results=bool(row.player_results),
        seed=row.seed,
        current_round=row.current_round,
        final_phase_started=row.final_phase_started,
        player_count=summary.player_count,
        last_event_id=summary.last_event_id,
        version=row.version,
        created_at=aware(row.created_at),
        warnings=warnings(settings.pairing, row, summary.playing),
        live_page=f"/v1/tournaments/{row.id}/live",
    )


def warnings(pairing: PairingSystem, row: Any, players: int) -> list[s.WarningRead]:
    """``dutch_rounds_not_assured`` while rounds past what the Dutch rules are sure to pair for
    the ``players`` who will play (entered and not withdrawn) remain to be paired
    (``chess.sure_rounds``)."""
    rounds, sure = row.resolved_swiss_rounds, chess.sure_rounds(players)
    if pairing is not PairingSystem.DUTCH or rounds <= sure or row.current_round >= rounds:
        return []
    detail = (
        f"{rounds} Swiss rounds for {players} players: the Dutch rules are sure to pair "
        f"{sure} of them; a later round may have no pairing that keeps C1–C3 (409 "
        f"pairing_impossible): choose at most {sure} rounds to be safe"
    )
    return [s.WarningRead(code="dutch_rounds_not_assured", detail=detail)]


def player(p: Player) -> s.PlayerRead:
    return s.PlayerRead(
        id=p.id,
        name=p.name,
        rating=p.rating,
        start_number=p.start_number,
        group=p.group,
        withdrawn=p.withdrawn,
        entered_round=p.entered_round,
        title=p.title,
        fide_id=p.fide_id,
        requested_byes=[s.RequestedByeRead(round=b.round, kind=b.kind) for b in p.requested_byes],
        team=p.team,
        checked_in=p.checked_in,
        members=list(p.members) or None,
    )


def forbidden_pair(f: ForbiddenPair) -> s.ForbiddenPairRead:
    return s.ForbiddenPairRead(id=f.id, players=[f.first, f.second], kind=f.kind)


def forbidden_pairs(t: Tournament) -> list[s.ForbiddenPairRead]:
    """By id."""
    return [forbidden_pair(f) for _, f in sorted(t.forbidden_pairs.items())]


def players(t: Tournament) -> list[s.PlayerRead]:
    return [player(p) for p in sorted(t.players.values(), key=lambda p: p.start_number)]


def match(m: Match) -> s.MatchRead:
    result = None
    if m.result is not None:
        r = m.result
        result = s.ResultRead(
            home=r.home_goals,
            away=r.away_goals,
            winner=r.winning_side,
            decided_by=r.decided_by,
            forfeit=r.forfeit,
        )
    return s.MatchRead(
        id=m.id,
        stage=m.stage,
        round=m.round,
        group=m.group,
        board=m.board,
        home=m.home,
        away=m.away,
        white=m.home if m.colour_rule is ColourRule.FIDE else None,
        black=m.away if m.colour_rule is ColourRule.FIDE else None,
        colour_rule=m.colour_rule,
        result=result,
        manual=m.manual,
        home_partner=m.home_partner,
        away_partner=m.away_partner,
    )


def round_(t: Tournament, r: SwissRound) -> s.RoundRead:
    matches = t.round_matches(r.number)
    return s.RoundRead(
        number=r.number,
        matches=[match(m) for m in matches],
        byes=list(r.byes),
        rematches=r.rematches,
        rematch_pairs=[s.RematchPair(higher=p.higher, lower=p.lower) for p in r.rematch_pairs],
        paths=[{"group": g, "path": list(path)} for g, path in r.paths],
        complete=all(m.result is not None for m in matches),
        manual=r.manual,
        checks=[pairing_check(c) for c in r.checks],
    )


def round_summary(t: Tournament, r: SwissRound) -> s.RoundSummary:
    """The round as its events name it: number, kind and counts, never its boards."""
    return s.RoundSummary(
        number=r.number,
        manual=r.manual,
        rematches=r.rematches,
        match_count=len(t.round_matches(r.number)),
        bye_count=len(r.byes),
        check_count=len(r.checks),
    )


def pairing_check(c: PairingCheck) -> s.PairingCheckRead:
    return s.PairingCheckRead(
        rule=c.rule, severity=c.severity, players=list(c.players), sentence=c.sentence
    )


def standings(t: Tournament, group: GroupName | None) -> s.StandingsRead:
    tiebreak = t.settings.tiebreak_in_use
    qualified = t.qualified() if t.format.final_phase is not FinalPhaseKind.NONE else frozenset()
    names = t.players
    per_match = tiebreak is Tiebreak.POINTS_PER_MATCH
    return s.StandingsRead(
        tiebreak=tiebreak,
        criteria=list(TIEBREAK_CRITERIA[tiebreak]),
        group=group,
        round=t.current_round,
        rows=[
            s.StandingRowRead(
                rank=r.rank,
                player_id=r.player_id,
                name=names[r.player_id].name,
                members=list(names[r.player_id].members) or None,
                group=names[r.player_id].group,
                played=r.played,
                wins=r.wins,
                draws=r.draws,
                losses=r.losses,
                byes=r.byes,
                goals_for=r.goals_for,
                goals_against=r.goals_against,
                goal_difference=r.goal_difference,
                points=s.points_number(r.points),
                buchholz=s.points_number(r.buchholz),
                median_buchholz=s.points_number(r.median_buchholz),
                sonneborn_berger=s.fraction_number(r.sonneborn_berger),
                progressive=s.points_number(r.progressive),
                direct_encounter=None
                if r.direct_encounter is None
                else s.points_number(r.direct_encounter),
                qualified=r.player_id in qualified,
                withdrawn=r.withdrawn,
                points_per_match=round(float(r.points_per_match) / 2, 3) if per_match else None,
            )
            for r in t.standings(group)
        ],
    )


def final_phase(t: Tournament) -> s.FinalPhaseRead:
    fmt = t.format
    ranking = t.final_ranking()
    qualifiers = _qualifier_order(t) if fmt.final_phase is not FinalPhaseKind.NONE else []
    return s.FinalPhaseRead(
        kind=fmt.final_phase,
        started=t.final_phase_started,
        qualifiers=qualifiers,
        matches=[match(m) for m in t.final_matches()],
        final_ranking=[
            s.PlaceRead(place=i, player_id=pid, name=t.players[pid].name)
            for i, pid in enumerate(ranking, start=1)
        ]
        if ranking is not None
        else None,
    )


def _qualifier_order(t: Tournament) -> list[int]:
    chosen = t.qualified()
    return [r.player_id for r in t.standings() if r.player_id in chosen]


def check(
    t: Tournament, report: CheckReport, *, name: str, tournament_id: str | None
) -> s.CheckRead:
    """A check's report; the players of the differing rounds listed once, by start number."""
    named: set[PlayerId] = set()
    differences = []
    for d in report.differences:
        for pairing in (d.recorded, d.system):
            if pairing is not None:
                named.update(pairing.opponents())
        differences.append(
            s.RoundDifferenceRead(
                round=d.number,
                recorded=_checked(d.recorded),
                system=None if d.system is None else _checked(d.system),
                other_opponents=list(d.other_opponents),
                swapped_colours=[s.CheckedBoardRead(home=h, away=a) for h, a in d.swapped_colours],
                refusal=d.refusal,
            )
        )
    players = sorted((t.players[pid] for pid in named), key=lambda p: p.start_number)
    return s.CheckRead(
        name=name,
        tournament=tournament_id,
        pairing=report.system,
        rounds=report.rounds,
        rounds_checked=report.rounds_checked,
        rounds_differing=len(report.differences),
        unchecked_from=report.unchecked_from,
        differences=differences,
        players=[
            s.CheckedPlayerRead(id=p.id, start_number=p.start_number, name=p.name) for p in players
        ],
    )


def _checked(pairing: CheckedPairing) -> s.CheckedPairingRead:
    return s.CheckedPairingRead(
        boards=[s.CheckedBoardRead(home=h, away=a) for h, a in pairing.boards],
        byes=list(pairing.byes),
    )
