"""Players report results: a claim with the board's code, confirmed by the other side.

A claim is checked without any lock (the setting, the code, the result's own rules), then
decided under the tournament's lock on the claims as they are then (``app.domain.reports``):
two claims sent at once are decided one after the other, so they never make two results. A
confirmed claim is recorded exactly as the organizer's ``PUT …/result`` would record it
(``results.confirm``: same rules, same ``result.*`` events, same standings); a result recorded
any other way ends the board's claims (``storage``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.orm import Session

from app.domain.errors import UnknownMatch
from app.domain.matches import Match, MatchId
from app.domain.reports import (
    BoardState,
    Claims,
    ReportStep,
    ResultAlreadyRecorded,
    report,
)
from app.domain.results import with_result
from app.domain.types import Result, Side, Stage
from app.errors import NotASwissBoard, PlayerResultsOff, WrongBoardCode
from app.models import ResultClaimRow
from app.services import access, board_codes, commands, events, results, storage
from app.services.storage import T, now
from app.services.views import aware

C = ResultClaimRow.__table__  # type: ignore[attr-defined]
PLAYER = "player"
"""The audit trail's actor of a claim (players have no tokens; the code is never recorded)."""


@dataclass(frozen=True, slots=True)
class Claimed:
    """What a claim did (``step``; ``None``: it repeated the side's own claim, nothing changed),
    where the board stands now, and the match as it is now."""

    step: ReportStep | None
    state: BoardState
    match: Match


@dataclass(frozen=True, slots=True)
class SideClaim:
    result: Result
    claimed_at: datetime


@dataclass(frozen=True, slots=True)
class BoardClaims:
    """A board's claims, for the organizer."""

    match: Match
    home: SideClaim | None
    away: SideClaim | None

    @property
    def state(self) -> BoardState:
        return Claims(
            self.home.result if self.home else None, self.away.result if self.away else None
        ).state


def _settings(session: Session, tournament_id: str) -> tuple[bool, str | None]:
    row = session.execute(
        select(T.c.player_results, T.c.report_key).where(T.c.id == tournament_id)
    ).first()
    if row is None:
        access.read_header(session, tournament_id)  # raises the 404
        raise AssertionError("unreachable")  # pragma: no cover
    return bool(row[0]), row[1]


def takes_claims(session: Session, tournament_id: str) -> bool:
    """Whether the tournament lets players report results (``player_results``)."""
    enabled, key = _settings(session, tournament_id)
    return enabled and key is not None


def _board(
    session: Session, tournament_id: str, match_id: int, code: str
) -> tuple[storage.MatchScope, Match]:
    """The board's scope if the tournament takes players' results and ``code`` is its code."""
    enabled, key = _settings(session, tournament_id)
    if not enabled or key is None:
        raise PlayerResultsOff(
            "this tournament does not take results from players: the organizer or a "
            "scorekeeper records them (the organizer may turn `player_results` on)"
        )
    scope = storage.load_match_scope(session, tournament_id, match_id)
    if scope.match is None:
        raise UnknownMatch(f"no match {match_id} in this tournament: check the table card")
    if not board_codes.matches(key, scope.match, code):
        raise WrongBoardCode(
            "this is not the code of this board: type the code printed on its table card"
        )
    if scope.match.stage is not Stage.SWISS:
        raise NotASwissBoard(
            "players report the boards of Swiss rounds; a final-phase result is the organizer's"
        )
    return scope, scope.match


def _check(scope: storage.MatchScope, match: Match, result: Result) -> None:
    """The board still takes claims, and ``result`` is one the organizer could record."""
    if match.result is not None:
        raise ResultAlreadyRecorded(
            "this board's result is recorded already: ask the organizer to correct it"
        )
    with_result(
        match,
        result,
        current_round=scope.current_round,
        final_phase_started=scope.final_phase_started,
        final_matches=(),
    )


def claim(
    session: Session, tournament_id: str, match_id: int, *, code: str, side: Side, result: Result
) -> Claimed:
    """A side's claim of the board's result (``app.domain.reports.report``), with its code."""
    scope, match = _board(session, tournament_id, match_id, code)
    _check(scope, match, result)  # a refusal takes no lock
    locked = access.lock_header_in_queue(session, tournament_id, seen=scope.version)
    if locked.version != scope.version:  # under the lock: the board as it is now
        scope, match = _board(session, tournament_id, match_id, code)
        _check(scope, match, result)
    before = load_claims(session, tournament_id, match_id)
    reported = report(before, side, result)
    if not reported.changed:
        return Claimed(None, before.state, match)
    write = access.Write(tournament_id, actor=PLAYER)
    data = {"match_id": match.id, "round": match.round, "board": match.board, "side": side.value}
    detail: dict[str, Any] = {
        "match_id": match.id,
        "side": side.value,
        "home": result.home_goals,
        "away": result.away_goals,
    }
    if reported.step is ReportStep.CONFIRMED:
        confirmed = results.confirm(
            session,
            write,
            match.id,
            result,
            detail=detail,
            also=[(events.REPORT_CONFIRMED, data)],
        )
        return Claimed(reported.step, BoardState.OPEN, confirmed)
    _save_claim(session, tournament_id, match.id, side, result)
    version = locked.version + 1
    session.execute(
        update(T).where(T.c.id == tournament_id).values(version=version, updated_at=now())
    )
    kind = events.REPORT_DISPUTED if reported.step is ReportStep.DISPUTED else events.REPORT_CLAIMED
    commands.conclude(
        session,
        write,
        f"results-{reported.step.value}",
        version=version,
        detail=detail,
        caused=[(kind, data)],
    )
    return Claimed(reported.step, reported.claims.state, match)


def _save_claim(session: Session, tid: str, match_id: int, side: Side, result: Result) -> None:
    session.execute(
        delete(C).where(
            C.c.tournament_id == tid, C.c.match_number == match_id, C.c.side == side.value
        )
    )
    session.execute(
        insert(C).values(
            tournament_id=tid,
            match_number=match_id,
            side=side.value,
            home_goals=result.home_goals,
            away_goals=result.away_goals,
            claimed_at=now(),
        )
    )


def load_claims(session: Session, tournament_id: str, match_id: int) -> Claims:
    rows = session.execute(
        select(C.c.side, C.c.home_goals, C.c.away_goals).where(
            C.c.tournament_id == tournament_id, C.c.match_number == match_id
        )
    )
    found = {Side(r[0]): Result(r[1], r[2]) for r in rows}
    return Claims(found.get(Side.HOME), found.get(Side.AWAY))


def board_claims(session: Session, tournament_id: str) -> list[BoardClaims]:
    """Every board with a claim, by match id: what the organizer settles."""
    rows = session.execute(
        select(C.c.match_number, C.c.side, C.c.home_goals, C.c.away_goals, C.c.claimed_at)
        .where(C.c.tournament_id == tournament_id)
        .order_by(C.c.match_number, C.c.side)
    ).all()
    if not rows:
        return []
    tournament = storage.load(session, tournament_id)
    by_match: dict[int, dict[Side, SideClaim]] = {}
    for r in rows:
        by_match.setdefault(r[0], {})[Side(r[1])] = SideClaim(Result(r[2], r[3]), aware(r[4]))
    return [
        BoardClaims(tournament.matches[MatchId(m)], sides.get(Side.HOME), sides.get(Side.AWAY))
        for m, sides in sorted(by_match.items())
    ]


def board_states(session: Session, tournament_id: str) -> dict[int, BoardState]:
    """The state of every board with a claim (``pending`` or ``disputed``), by match id."""
    rows = session.execute(
        select(C.c.match_number, C.c.side, C.c.home_goals, C.c.away_goals).where(
            C.c.tournament_id == tournament_id
        )
    ).all()
    claims: dict[int, Claims] = {}
    for r in rows:
        old = claims.get(r[0], Claims())
        result = Result(r[2], r[3])
        claims[r[0]] = (
            Claims(result, old.away) if r[1] == Side.HOME.value else Claims(old.home, result)
        )
    return {m: c.state for m, c in claims.items()}


def codes(session: Session, tournament_id: str, boards: list[Match]) -> dict[int, str] | None:
    """The codes of ``boards`` by match id, for the table cards; ``None`` when the tournament
    does not take players' results."""
    enabled, key = _settings(session, tournament_id)
    if not enabled or key is None:
        return None
    return {m.id: board_codes.shown(board_codes.code_of(key, m)) for m in boards}
