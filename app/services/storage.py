"""Rows to domain state and back.

``load`` rebuilds a ``Tournament`` from column tuples (no ORM instances: the read path of a
1,000-player tournament stays cheap). ``save`` writes the difference between a ``Snapshot``
taken before a command and the tournament after it, so every command is persisted the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import Session, aliased

from app.domain.colours import ColourRule
from app.domain.explanation import RoundExplanation
from app.domain.forbidden import ForbiddenPair, ForbiddenPairId, PairKind, TeamRule
from app.domain.formats import FinalPhaseKind, FormatPreset, GroupAssignment, GroupsSetting
from app.domain.matches import Match, MatchId, SwissRound
from app.domain.pairing_checks import CheckRule, PairingCheck, Severity
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import (
    ByeKind,
    DecidedBy,
    Entry,
    FideTitle,
    Forfeit,
    GroupName,
    InitialColour,
    Pair,
    PairingSystem,
    Player,
    PlayerId,
    PointsTable,
    RequestedBye,
    Result,
    RoundNumber,
    Score,
    Side,
    Stage,
    Status,
    Tiebreak,
)
from app.errors import Busy, TournamentNotFound
from app.models import (
    ForbiddenPairRow,
    MatchRow,
    PlayerRow,
    ResultClaimRow,
    ResultRow,
    RoundRow,
    TournamentRow,
)
from app.services import bulk, explanation_codec

T = TournamentRow.__table__  # type: ignore[attr-defined]
P = PlayerRow.__table__  # type: ignore[attr-defined]
R = RoundRow.__table__  # type: ignore[attr-defined]
M = MatchRow.__table__  # type: ignore[attr-defined]
RES = ResultRow.__table__  # type: ignore[attr-defined]
F = ForbiddenPairRow.__table__  # type: ignore[attr-defined]
CLAIM = ResultClaimRow.__table__  # type: ignore[attr-defined]

SETTINGS_COLUMNS = (
    T.c.seed,
    T.c.pairing,
    T.c.tiebreak,
    T.c.points_win,
    T.c.points_draw,
    T.c.points_loss,
    T.c.points_bye,
    T.c.format_preset,
    T.c.swiss_rounds,
    T.c.final_phase,
    T.c.groups,
    T.c.initial_colour,
    T.c.allowed_byes,
    T.c.avoid_same_team,
    T.c.pair_checked_in_only,
    T.c.round_duration,
    T.c.top_cut_size,
    T.c.third_place,
    T.c.grand_final_reset,
    T.c.entry,
    T.c.final_phase_started,
    T.c.final_seeds,
)


def now() -> datetime:
    return datetime.now(UTC)


# -- settings <-> columns ---------------------------------------------------------------------


def settings_from_columns(row: Any) -> Settings:
    groups = None
    if row.groups is not None:
        manual = row.groups.get("manual")
        groups = GroupsSetting(
            GroupAssignment(row.groups["assignment"]),
            tuple(tuple(names) for names in manual) if manual is not None else None,
        )
    return Settings(
        seed=row.seed,
        pairing=PairingSystem(row.pairing),
        tiebreak=Tiebreak(row.tiebreak) if row.tiebreak else None,
        points=PointsTable(
            Score(row.points_win),
            Score(row.points_draw),
            Score(row.points_loss),
            Score(row.points_bye),
        ),
        format=FormatPreset(row.format_preset),
        swiss_rounds=row.swiss_rounds,
        final_phase=FinalPhaseKind(row.final_phase) if row.final_phase else None,
        groups=groups,
        initial_colour=InitialColour(row.initial_colour) if row.initial_colour else None,
        allowed_byes=frozenset(ByeKind(k) for k in row.allowed_byes)
        if row.allowed_byes is not None
        else None,
        avoid_same_team=TeamRule(row.avoid_same_team),
        pair_checked_in_only=row.pair_checked_in_only,
        round_duration=row.round_duration,
        top_cut_size=row.top_cut_size,
        third_place=row.third_place,
        grand_final_reset=row.grand_final_reset,
        entry=Entry(row.entry),
    )


def settings_columns(settings: Settings) -> dict[str, Any]:
    groups = None
    if settings.groups is not None:
        groups = {
            "count": 2,
            "assignment": settings.groups.assignment.value,
            "manual": [list(names) for names in settings.groups.manual]
            if settings.groups.manual is not None
            else None,
        }
    return {
        "seed": settings.seed,
        "pairing": settings.pairing.value,
        "tiebreak": settings.tiebreak.value if settings.tiebreak else None,
        "points_win": settings.points.win,
        "points_draw": settings.points.draw,
        "points_loss": settings.points.loss,
        "points_bye": settings.points.bye,
        "format_preset": settings.format.value,
        "swiss_rounds": settings.swiss_rounds,
        "final_phase": settings.final_phase.value if settings.final_phase else None,
        "groups": groups,
        "initial_colour": settings.initial_colour.value if settings.initial_colour else None,
        "allowed_byes": sorted(k.value for k in settings.allowed_byes)
        if settings.allowed_byes is not None
        else None,
        "avoid_same_team": settings.avoid_same_team.value,
        "pair_checked_in_only": settings.pair_checked_in_only,
        "round_duration": settings.round_duration,
        "top_cut_size": settings.top_cut_size,
        "third_place": settings.third_place,
        "grand_final_reset": settings.grand_final_reset,
        "entry": settings.entry.value,
    }


def derived_columns(tournament: Tournament) -> dict[str, Any]:
    """What the domain derives and the table keeps for listing and reading without rebuilding."""
    fmt = tournament.format
    return {
        "status": tournament.status.value,
        "resolved_swiss_rounds": fmt.swiss_rounds,
        "resolved_final_phase": fmt.final_phase.value,
        "resolved_groups": fmt.groups,
        "final_phase_started": tournament.final_phase_started,
        "final_seeds": list(tournament.final_seeds) if tournament.final_seeds else None,
        "current_round": tournament.current_round,
    }


# -- loading ----------------------------------------------------------------------------------


LOAD_ATTEMPTS = 5
"""Reads of a tournament's rows before one is refused as busy (writes kept coming meanwhile)."""


def load(session: Session, tournament_id: str) -> Tournament:
    """The tournament's domain state, rebuilt from its rows without re-pairing anything."""
    return load_versioned(session, tournament_id)[1]


def load_versioned(session: Session, tournament_id: str) -> tuple[int, Tournament]:
    """The tournament as it is at one version, and that version.

    Each statement sees the latest committed state (PostgreSQL's read committed; SQLite outside
    a write transaction), so rows read one query after another could mix two states when a write
    is saved in between. Every write bumps the version, so the version is read before the rows
    and after them: the same number twice means every row came from that one state; otherwise
    the rows are read again.
    """
    for _ in range(LOAD_ATTEMPTS):
        header = session.execute(
            select(T.c.version, *SETTINGS_COLUMNS).where(T.c.id == tournament_id)
        ).first()
        if header is None:
            raise TournamentNotFound(tournament_id)
        tournament = _rebuild(session, tournament_id, header)
        after = session.execute(select(T.c.version).where(T.c.id == tournament_id)).scalar()
        if after == header.version:
            return header.version, tournament
    raise Busy("the tournament kept changing while it was read: try again")


def _rebuild(session: Session, tournament_id: str, header: Any) -> Tournament:
    players = [
        Player(
            PlayerId(r[0]),
            r[1],
            r[2],
            r[3],
            GroupName(r[4]) if r[4] else None,
            RoundNumber(r[5]),
            RoundNumber(r[6]) if r[6] is not None else None,
            _TITLE[r[7]],
            r[8],
            tuple(RequestedBye(RoundNumber(n), _BYE[k]) for n, k in r[9]) if r[9] else (),
            r[10],
            bool(r[11]),
            tuple(r[12] or ()),
        )
        for r in session.execute(
            select(
                P.c.number,
                P.c.name,
                P.c.start_number,
                P.c.rating,
                P.c.group,
                P.c.entered_round,
                P.c.withdrawn_after,
                P.c.title,
                P.c.fide_id,
                P.c.requested_byes,
                P.c.team,
                P.c.checked_in,
                P.c.members,
            ).where(P.c.tournament_id == tournament_id)
        )
    ]
    rounds = [
        SwissRound(
            RoundNumber(r[0]),
            tuple(PlayerId(p) for p in r[1]),
            tuple(Pair(PlayerId(a), PlayerId(b)) for a, b in r[2]),
            tuple((GroupName(g) if g else None, tuple(path)) for g, path in r[3]),
            manual=r[4],
            checks=tuple(_check(c) for c in r[5] or ()),
        )
        for r in session.execute(
            select(R.c.number, R.c.byes, R.c.rematch_pairs, R.c.paths, R.c.manual, R.c.checks)
            .where(R.c.tournament_id == tournament_id)
            .order_by(R.c.number)
        )
    ]
    matches = [
        _match(r) for r in session.execute(_MATCHES.where(M.c.tournament_id == tournament_id))
    ]
    forbidden = [
        ForbiddenPair(ForbiddenPairId(r[0]), PlayerId(r[1]), PlayerId(r[2]), PairKind(r[3]))
        for r in session.execute(
            select(F.c.number, F.c.first, F.c.second, F.c.kind).where(
                F.c.tournament_id == tournament_id
            )
        )
    ]
    return Tournament(
        settings_from_columns(header),
        players,
        rounds=rounds,
        matches=matches,
        final_phase_started=header.final_phase_started,
        final_seeds=[PlayerId(pid) for pid in header.final_seeds or ()],
        forbidden_pairs=forbidden,
    )


def load_explanation(session: Session, tournament_id: str, number: int) -> RoundExplanation:
    """The explanation stored with round ``number`` (``NO_EXPLANATION``: none was kept).

    Left out of ``load``: only the explanation read asks for it, and it grows with the field.
    """
    data = session.execute(
        select(R.c.explanation).where(R.c.tournament_id == tournament_id, R.c.number == number)
    ).scalar_one_or_none()
    return explanation_codec.from_json(data)


_RESULT_OF_MATCH = (RES.c.tournament_id == M.c.tournament_id) & (RES.c.match_number == M.c.number)
_MATCHES = select(
    M.c.number,
    M.c.stage,
    M.c.round,
    M.c.group,
    M.c.board,
    M.c.home,
    M.c.away,
    M.c.colour_rule,
    M.c.manual,
    RES.c.home_goals,
    RES.c.away_goals,
    RES.c.winner,
    RES.c.decided_by,
    RES.c.forfeit,
    M.c.home_partner,
    M.c.away_partner,
).outerjoin(RES, _RESULT_OF_MATCH)


# Enum members by stored value: a dict lookup is several times cheaper than ``Enum(value)``,
# which counts when a large tournament loads thousands of matches.
_STAGE = {s.value: s for s in Stage}
_SIDE: dict[str | None, Side | None] = {None: None, **{s.value: s for s in Side}}
_FORFEIT: dict[str | None, Forfeit | None] = {None: None, **{f.value: f for f in Forfeit}}
_DECIDED: dict[str | None, DecidedBy | None] = {None: None, **{d.value: d for d in DecidedBy}}
_RULE = {c.value: c for c in ColourRule}
_TITLE: dict[str | None, FideTitle | None] = {None: None, **{t.value: t for t in FideTitle}}
_BYE = {k.value: k for k in ByeKind}


def _check(c: dict[str, Any]) -> PairingCheck:
    return PairingCheck(
        CheckRule(c["rule"]),
        Severity(c["severity"]),
        tuple(PlayerId(p) for p in c["players"]),
        c["sentence"],
    )


def _check_values(c: PairingCheck) -> dict[str, Any]:
    return {
        "rule": c.rule.value,
        "severity": c.severity.value,
        "players": list(c.players),
        "sentence": c.sentence,
    }


def _match(r: Any) -> Match:
    result = None
    if r[9] is not None:
        result = Result(r[9], r[10], _SIDE[r[11]], _DECIDED[r[12]], _FORFEIT[r[13]])
    return Match(
        r[0],
        _STAGE[r[1]],
        RoundNumber(r[2]) if r[2] is not None else None,
        GroupName(r[3]) if r[3] else None,
        r[4],
        PlayerId(r[5]),
        PlayerId(r[6]),
        _RULE[r[7]],
        result,
        bool(r[8]),
        None if r[14] is None else PlayerId(r[14]),
        None if r[15] is None else PlayerId(r[15]),
    )


@dataclass(frozen=True, slots=True)
class MatchScope:
    """What a result on one match needs of its tournament, read at ``version``: the status and
    format columns the last write kept (``derived_columns``), the match (``None``: no such
    match), and how many other Swiss matches of the latest round have no result."""

    version: int
    status: Status
    current_round: int
    swiss_rounds: int
    final_phase: FinalPhaseKind
    final_phase_started: bool
    match: Match | None
    others_open: int


def load_match_scope(session: Session, tournament_id: str, match_id: int) -> MatchScope:
    """A ``MatchScope`` in one statement, so of one state, whatever the size of the tournament."""
    others = aliased(M)
    others_result = aliased(RES)
    others_open = (
        select(func.count())
        .select_from(
            others.outerjoin(
                others_result,
                (others_result.c.tournament_id == others.c.tournament_id)
                & (others_result.c.match_number == others.c.number),
            )
        )
        .where(
            others.c.tournament_id == T.c.id,
            others.c.stage == Stage.SWISS.value,
            others.c.round == T.c.current_round,
            others.c.number != match_id,
            others_result.c.match_number.is_(None),
        )
        .scalar_subquery()
    )
    match = M.outerjoin(RES, _RESULT_OF_MATCH)
    row = session.execute(
        select(
            T.c.version,
            T.c.status,
            T.c.current_round,
            T.c.resolved_swiss_rounds,
            T.c.resolved_final_phase,
            T.c.final_phase_started,
            others_open,
            *_MATCHES.selected_columns,
        )
        .select_from(T.outerjoin(match, (M.c.tournament_id == T.c.id) & (M.c.number == match_id)))
        .where(T.c.id == tournament_id)
    ).first()
    if row is None:
        raise TournamentNotFound(tournament_id)
    return MatchScope(
        row[0],
        Status(row[1]),
        row[2],
        row[3],
        FinalPhaseKind(row[4]),
        row[5],
        _match(row[7:]) if row[7] is not None else None,
        row[6],
    )


# -- saving -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The parts of a tournament a command may change, as they were before it."""

    settings: Settings
    players: dict[PlayerId, Player]
    rounds: tuple[SwissRound, ...]
    matches: dict[MatchId, Match]
    forbidden_pairs: dict[ForbiddenPairId, ForbiddenPair]

    @classmethod
    def of(cls, tournament: Tournament) -> Snapshot:
        return cls(
            tournament.settings,
            dict(tournament.players),
            tuple(tournament.rounds),
            dict(tournament.matches),
            dict(tournament.forbidden_pairs),
        )


EMPTY = Snapshot(Settings(seed=0), {}, (), {}, {})


def save(
    session: Session, tournament_id: str, before: Snapshot, after: Tournament, **columns: Any
) -> None:
    """Write what changed between ``before`` and ``after`` (and any extra tournament columns)."""
    values = {**derived_columns(after), "updated_at": now(), **columns}
    if after.settings != before.settings:
        values.update(settings_columns(after.settings))
    session.execute(update(T).where(T.c.id == tournament_id).values(**values))
    _save_players(session, tournament_id, before.players, after.players)
    _save_rounds(session, tournament_id, before.rounds, after.rounds)
    _save_matches(session, tournament_id, before.matches, after.matches)
    _save_forbidden(session, tournament_id, before.forbidden_pairs, after.forbidden_pairs)


def save_result(
    session: Session,
    tournament_id: str,
    before: Match,
    after: Match,
    *,
    version: int,
    status: Status,
) -> None:
    """Write one match's new result, and the tournament's version and status: all that a
    result on a Swiss match changes (``MatchScope``)."""
    session.execute(
        update(T)
        .where(T.c.id == tournament_id)
        .values(version=version, status=status.value, updated_at=now())
    )
    _save_matches(session, tournament_id, {before.id: before}, {after.id: after})


PLAYER_COLUMNS = (
    "tournament_id",
    "number",
    "name",
    "start_number",
    "rating",
    "group",
    "entered_round",
    "withdrawn_after",
    "title",
    "fide_id",
    "requested_byes",
    "team",
    "checked_in",
    "members",
)


def _player_row(tid: str, p: Player, json: Callable[[Any], Any]) -> tuple[Any, ...]:
    """A player's row, in the order of ``PLAYER_COLUMNS``; ``json`` turns the byes asked for
    and the members (JSON columns both) into what the driver takes (``bulk.driver_value``)."""
    return (
        tid,
        p.id,
        p.name,
        p.start_number,
        p.rating,
        p.group,
        p.entered_round,
        p.withdrawn_after,
        p.title.value if p.title else None,
        p.fide_id,
        json([[b.round, b.kind.value] for b in p.requested_byes] or None),
        p.team,
        p.checked_in,
        json(list(p.members) or None),
    )


def _player_values(p: Player) -> dict[str, Any]:
    """The columns a change to a player may write (``update``: SQLAlchemy binds them)."""
    return dict(zip(PLAYER_COLUMNS[2:], _player_row("", p, _as_is)[2:], strict=True))


def _as_is(value: Any) -> Any:
    return value


def _save_forbidden(
    session: Session,
    tid: str,
    before: dict[ForbiddenPairId, ForbiddenPair],
    after: dict[ForbiddenPairId, ForbiddenPair],
) -> None:
    """Pairs are only added and deleted (a kind changes by deleting first); a deleted
    player's pairs are already gone by the cascade of its row."""
    gone = [fid for fid, f in before.items() if after.get(fid) != f]
    if gone:
        session.execute(delete(F).where(F.c.tournament_id == tid, F.c.number.in_(gone)))
    new = [
        {
            "tournament_id": tid,
            "number": f.id,
            "first": f.first,
            "second": f.second,
            "kind": f.kind.value,
        }
        for fid, f in after.items()
        if before.get(fid) != f
    ]
    if new:
        session.execute(insert(F), new)


def _save_players(
    session: Session, tid: str, before: dict[PlayerId, Player], after: dict[PlayerId, Player]
) -> None:
    gone = [pid for pid in before if pid not in after]
    if gone:
        session.execute(delete(P).where(P.c.tournament_id == tid, P.c.number.in_(gone)))
    new = [p for pid, p in after.items() if pid not in before]
    if new:  # a creation or a TRF file brings up to 4,096: the driver's bulk path
        json = bulk.driver_value(session, P, "requested_byes")
        bulk.insert_rows(session, P, PLAYER_COLUMNS, [_player_row(tid, p, json) for p in new])
    for pid, p in after.items():
        if pid in before and before[pid] != p:
            session.execute(
                update(P)
                .where(P.c.tournament_id == tid, P.c.number == pid)
                .values(**_player_values(p))
            )


def _round_values(r: SwissRound) -> dict[str, Any]:
    return {
        "byes": list(r.byes),
        "rematch_pairs": [[p.higher, p.lower] for p in r.rematch_pairs],
        "paths": [[g, list(path)] for g, path in r.paths],
        "explanation": explanation_codec.to_json(r.explanation),
        "manual": r.manual,
        "checks": [_check_values(c) for c in r.checks] if r.manual else None,
    }


def _save_rounds(
    session: Session, tid: str, before: tuple[SwissRound, ...], after: list[SwissRound]
) -> None:
    gone = [r.number for r in before if r.number > len(after)]
    if gone:  # an undone round
        session.execute(delete(R).where(R.c.tournament_id == tid, R.c.number.in_(gone)))
    known = {r.number: r for r in before}
    new = [
        {"tournament_id": tid, "number": r.number, **_round_values(r)}
        for r in after
        if r.number not in known
    ]
    if new:
        session.execute(insert(R), new)
    for r in after:
        if r.number in known and known[r.number] != r:  # a round paired again by hand
            session.execute(
                update(R)
                .where(R.c.tournament_id == tid, R.c.number == r.number)
                .values(**_round_values(r))
            )


MATCH_COLUMNS = (
    "tournament_id",
    "number",
    "stage",
    "round",
    "group",
    "board",
    "home",
    "away",
    "colour_rule",
    "manual",
    "home_partner",
    "away_partner",
)
RESULT_COLUMNS = (
    "tournament_id",
    "match_number",
    "home_goals",
    "away_goals",
    "winner",
    "decided_by",
    "forfeit",
    "recorded_at",
)
_VALUE: dict[Any, str | None] = {
    member: member.value
    for kind in (Stage, ColourRule, Side, DecidedBy, Forfeit)
    for member in kind
}
"""Each enum member's stored value; ``None`` for none. A lookup, where ``.value`` (a property
of ``Enum``) cost a sixth of writing a 50,000-match file's rows."""
_VALUE[None] = None


def _match_row(tid: str, m: Match) -> tuple[Any, ...]:
    """A match's row, in the order of ``MATCH_COLUMNS``."""
    return (
        tid,
        m.id,
        _VALUE[m.stage],
        m.round,
        m.group,
        m.board,
        m.home,
        m.away,
        _VALUE[m.colour_rule],
        m.manual,
        m.home_partner,
        m.away_partner,
    )


def _match_values(m: Match) -> dict[str, Any]:
    return dict(zip(MATCH_COLUMNS[2:], _match_row("", m)[2:], strict=True))


def _result_row(tid: str, mid: MatchId, result: Result, at: Any) -> tuple[Any, ...]:
    """A result's row, in the order of ``RESULT_COLUMNS``; ``at`` is the time recorded, as the
    driver takes it (``bulk.datetime_value``)."""
    return (
        tid,
        mid,
        result.home_goals,
        result.away_goals,
        _VALUE[result.winner],
        _VALUE[result.decided_by],
        _VALUE[result.forfeit],
        at,
    )


def _save_matches(
    session: Session, tid: str, before: dict[MatchId, Match], after: dict[MatchId, Match]
) -> None:
    """New matches and results go in one bulk insert each (``bulk.insert_rows``): a TRF file
    brings tens of thousands."""
    gone = [mid for mid in before if mid not in after]
    # Players' claims end with their board, its players, or a result recorded any other way.
    settled = [mid for mid, m in before.items() if after.get(mid) != m]
    if settled:
        session.execute(
            delete(CLAIM).where(CLAIM.c.tournament_id == tid, CLAIM.c.match_number.in_(settled))
        )
    if gone:
        session.execute(delete(RES).where(RES.c.tournament_id == tid, RES.c.match_number.in_(gone)))
        session.execute(delete(M).where(M.c.tournament_id == tid, M.c.number.in_(gone)))
    new = [m for mid, m in after.items() if mid not in before]
    bulk.insert_rows(session, M, MATCH_COLUMNS, [_match_row(tid, m) for m in new])
    at = bulk.datetime_value(session, RES, "recorded_at", now())
    new_results = [_result_row(tid, m.id, m.result, at) for m in new if m.result is not None]
    for mid, m in after.items():
        old = before.get(mid)
        if old is None or old == m:
            continue
        if _match_values(old) != _match_values(m):
            session.execute(
                update(M)
                .where(M.c.tournament_id == tid, M.c.number == mid)
                .values(**_match_values(m))
            )
        if old.result != m.result:
            if old.result is not None:
                session.execute(
                    delete(RES).where(RES.c.tournament_id == tid, RES.c.match_number == mid)
                )
            if m.result is not None:
                new_results.append(_result_row(tid, mid, m.result, at))
    bulk.insert_rows(session, RES, RESULT_COLUMNS, new_results)
