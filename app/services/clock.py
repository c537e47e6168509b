"""A round's clock: read it, or start, pause, resume or end it (the organizer's).

A clock action is a short write like a token's: it locks the tournament row, reads the few
columns that decide the round's state (no ``Tournament`` is rebuilt), applies the domain's
``act``, saves the clock's row, moves the tournament to its next version (the ETag every read
answers, the audit trail's included), audits and emits ``clock.*`` with the clock measured at
the action's time.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import and_, insert, select, update
from sqlalchemy.orm import Session

from app.domain.clock import ClockAction, ClockState, RoundClock, act
from app.domain.formats import FinalPhaseKind
from app.domain.round_actions import RoundSituation
from app.domain.types import Stage
from app.errors import RoundNotFound
from app.models import RoundClockRow
from app.read_models import ClockRead
from app.services import access, commands, events
from app.services.storage import RES, M, R, T, now
from app.services.views import aware

C = RoundClockRow.__table__  # type: ignore[attr-defined]

EVENT_OF = {
    ClockAction.START: events.CLOCK_STARTED,
    ClockAction.PAUSE: events.CLOCK_PAUSED,
    ClockAction.RESUME: events.CLOCK_RESUMED,
    ClockAction.END: events.CLOCK_ENDED,
}


def server_time() -> datetime:
    """Now, to the millisecond: the clock's arithmetic and its JSON are in milliseconds."""
    moment = now()
    return moment.replace(microsecond=moment.microsecond // 1000 * 1000)


def read(session: Session, tournament_id: str, number: int) -> ClockRead:
    """Round ``number``'s clock measured now; ``not_started`` (with the tournament's
    ``round_duration``) when it was never started; 404 ``round_not_found`` for a round that
    does not exist."""
    at = server_time()
    clock = _stored(session, tournament_id, number)
    if clock is not None:
        return clock_read(number, clock.measured(at))
    if _round_exists(session, tournament_id, number) is None:
        raise RoundNotFound(
            f"round {number} has not been generated: GET …/rounds lists the rounds so far"
        )
    seconds = session.execute(
        select(T.c.round_duration).where(T.c.id == tournament_id)
    ).scalar_one_or_none()
    return _not_started(number, seconds, at)


def change(
    session: Session,
    write: access.Write,
    number: int,
    action: ClockAction,
    *,
    duration_seconds: int | None = None,
) -> ClockRead:
    """Apply ``action`` to round ``number``'s clock now (``app.domain.clock.act``). ``start``
    counts ``duration_seconds``, else the tournament's ``round_duration``."""
    tid = write.tournament_id
    version = access.lock_write(session, write)
    situation, setting = _situation(session, tid, number)
    at = server_time()
    before = _stored(session, tid, number)
    seconds = duration_seconds if duration_seconds is not None else setting
    clock = act(
        before if before is not None else RoundClock.not_started(0, at),
        action,
        now=at,
        situation=situation,
        duration_ms=seconds * 1000 if seconds is not None else None,
    )
    values = {
        "state": clock.state.value,
        "duration_ms": clock.duration_ms,
        "remaining_ms": clock.remaining_ms,
        "measured_at": clock.at,
    }
    if before is None:
        session.execute(insert(C).values(tournament_id=tid, round=number, **values))
    else:
        session.execute(update(C).where(C.c.tournament_id == tid, C.c.round == number), values)
    session.execute(update(T).where(T.c.id == tid).values(version=version + 1, updated_at=at))
    answer = clock_read(number, clock)
    commands.conclude(
        session,
        write,
        "rounds-clock-change",
        version=version + 1,
        detail={
            "round": number,
            "clock": action.value,
            "duration_ms": clock.duration_ms,
            "remaining_ms": clock.remaining_ms,
        },
        caused=[(EVENT_OF[action], {"clock": answer.model_dump(mode="json")})],
    )
    return answer


def clock_read(number: int, clock: RoundClock) -> ClockRead:
    return ClockRead(
        round=number,
        state=clock.state,
        duration_ms=clock.duration_ms,
        remaining_ms=clock.remaining_ms,
        measured_at=clock.at,
        ends_at=clock.ends_at,
        time_up=clock.time_up,
    )


def _not_started(number: int, seconds: int | None, at: datetime) -> ClockRead:
    ms = seconds * 1000 if seconds is not None else None
    return ClockRead(
        round=number,
        state=ClockState.NOT_STARTED,
        duration_ms=ms,
        remaining_ms=ms,
        measured_at=at,
        ends_at=None,
        time_up=False,
    )


def _stored(session: Session, tournament_id: str, number: int) -> RoundClock | None:
    row = session.execute(
        select(C.c.state, C.c.duration_ms, C.c.remaining_ms, C.c.measured_at).where(
            C.c.tournament_id == tournament_id, C.c.round == number
        )
    ).first()
    if row is None:
        return None
    return RoundClock(row[1], ClockState(row[0]), row[2], aware(row[3]))


def _round_exists(session: Session, tournament_id: str, number: int) -> int | None:
    found: int | None = session.execute(
        select(R.c.number).where(R.c.tournament_id == tournament_id, R.c.number == number)
    ).scalar_one_or_none()
    return found


def _situation(session: Session, tid: str, number: int) -> tuple[RoundSituation, int | None]:
    """What decides round ``number``'s state (``round_actions``), read from the columns the
    tournament keeps, and the tournament's ``round_duration``."""
    row = session.execute(
        select(
            T.c.current_round,
            T.c.resolved_swiss_rounds,
            T.c.final_phase_started,
            T.c.resolved_final_phase,
            T.c.round_duration,
        ).where(T.c.id == tid)
    ).one()
    latest = session.execute(
        select(M.c.number, RES.c.match_number)
        .select_from(
            M.outerjoin(
                RES,
                and_(RES.c.tournament_id == M.c.tournament_id, RES.c.match_number == M.c.number),
            )
        )
        .where(
            M.c.tournament_id == tid,
            M.c.stage == Stage.SWISS.value,
            M.c.round == row.current_round,
        )
        .order_by(M.c.number)
    ).all()
    situation = RoundSituation(
        number,
        row.current_round,
        row.resolved_swiss_rounds,
        row.final_phase_started,
        recorded=tuple(m for m, r in latest if r is not None),
        open=tuple(m for m, r in latest if r is None),
        final_phase_follows=row.resolved_final_phase != FinalPhaseKind.NONE.value,
    )
    return situation, row.round_duration
