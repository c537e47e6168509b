"""/v1/tournaments/{id}/rounds/{n}/clock: a round's clock, read by anyone, changed by the
organizer (start, pause, resume, end)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Path, Response

from app.api.deps import OrganizerDep, SessionDep, TournamentId, etag, matches_tag
from app.api.responses import WRITE, problems
from app.api.routing import CommittingRoute
from app.api.schemas import ClockWrite
from app.errors import NotModified
from app.inputs import MAX_INTEGER
from app.read_models import ClockRead
from app.services import access, clock

RoundNumberPath = Annotated[int, Path(ge=1, le=MAX_INTEGER, description="Round number")]
router = APIRouter(
    prefix="/v1/tournaments/{tournament_id}/rounds/{number}/clock",
    tags=["rounds"],
    route_class=CommittingRoute,
)


@router.get(
    "",
    operation_id="rounds-clock-read",
    summary="Read a round's clock",
    response_model=ClockRead,
    responses=problems(304, 404),
)
def read_clock(
    number: RoundNumberPath,
    tournament_id: TournamentId,
    session: SessionDep,
    response: Response,
    if_none_match: Annotated[str | None, Header(description="An ETag from an earlier read")] = None,
) -> ClockRead:
    """The clock measured now: its state, the milliseconds left at `measured_at` (this read's
    server time) and, while running, `ends_at`. `not_started` before its first start. Public;
    the ETag is the tournament's version, weak (`W/"12"`): the clock is the same while it holds,
    only the measurement moves, so a `304` means the copy you hold counts down rightly."""
    header = access.read_header(session, tournament_id)
    tag = f"W/{etag(header.version)}"
    if if_none_match is not None and matches_tag(if_none_match, etag(header.version)):
        raise NotModified(tag)
    response.headers["ETag"] = tag
    return clock.read(session, header.id, number)


@router.post(
    "",
    operation_id="rounds-clock-change",
    summary="Start, pause, resume or end a round's clock",
    response_model=ClockRead,
    responses=WRITE,
)
def change_clock(
    number: RoundNumberPath, body: ClockWrite, write: OrganizerDep, session: SessionDep
) -> ClockRead:
    """The organizer's: `start` counts `duration` seconds (else the tournament's
    `round_duration`; neither: 422 `clock_duration_required`) from now, also after `end` (a new
    count); `pause` keeps the time left, `resume` counts on from it, `end` stops it for good.
    Only the latest Swiss round's clock changes (an earlier one: 409 `round_locked`; after the
    final phase started: 409 `wrong_status`; not generated: 404 `round_not_found`); a round
    whose matches all have their result does not start or resume one (409 `round_complete`).
    A state that does not allow the action: 409 `clock_not_started`, `clock_already_started`,
    `clock_not_running`, `clock_not_paused`, `clock_ended`. Emits `clock.started|paused|
    resumed|ended` with the clock as answered; at 0 the clock says `time_up` and the round
    goes on (nothing ends by itself)."""
    return clock.change(session, write, number, body.action, duration_seconds=body.duration)
