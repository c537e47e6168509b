"""``POST /v1/check``: the checker. Every Swiss round of a tournament paired again from the rounds
before it and compared with the round as recorded; nothing is stored (``docs/api.md``,
"Checking a tournament").

Two bodies, as ``POST /v1/tournaments`` takes: a TRF (``Content-Type: text/plain``), read as the
TRF import reads it and checked by ``dutch``; or JSON ``{"tournament": id}``, a stored
tournament checked by its own system. The TRF route is tried first and takes every body that is
not JSON (``app.api.trf.TrfBodyRoute``). A check is a read: no token, like every read of a
tournament. Both forms are CPU work and take the worker's one TRF slot (``import_slot``): one
import or check at a time per worker, the others waiting at most the lock timeout (503
``busy``); the check's CPU time, all rounds together, is bounded by ``SVIZZERA_CHECK_TIMEOUT``
(503 ``pairing_timeout``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Request

from app.api.deps import SessionDep
from app.api.responses import problems
from app.api.schemas import CheckRequest
from app.api.trf import TrfBodyRoute, import_slot, require_trf_body, trf_body
from app.domain.deadline import Deadline
from app.read_models import CheckRead
from app.services import checks
from app.settings import Settings

router = APIRouter(prefix="/v1/check", tags=["check"])
RESPONSES = problems(404, 409, 413, 503)  # 409 not_for_dyp


def check_deadline(request: Request) -> Deadline:
    """The check's budget: ``SVIZZERA_CHECK_TIMEOUT`` of CPU time for every round together, and
    on the clock the larger of it and ``SVIZZERA_PAIRING_WALL_TIMEOUT``. Called in the
    handler's thread, the one that pairs (a CPU clock means nothing in another)."""
    settings: Settings = request.app.state.settings
    wall = max(settings.check_timeout, settings.pairing_wall_timeout)
    return Deadline.after(
        settings.check_timeout, wall_seconds=wall, setting="SVIZZERA_CHECK_TIMEOUT"
    )


def check_trf(body: Annotated[bytes, Depends(trf_body)], request: Request) -> CheckRead:
    """A TRF's rounds, each paired again by `dutch`; see docs/api.md."""
    return checks.check_trf(body, deadline=check_deadline(request))


router.add_api_route(
    "",
    check_trf,
    methods=["POST"],
    response_model=CheckRead,
    responses=RESPONSES,
    dependencies=[Depends(require_trf_body), Depends(import_slot, scope="function")],
    include_in_schema=False,  # named in the description of `check`
    route_class_override=TrfBodyRoute,
)


@router.post(
    "",
    operation_id="check",
    summary="Check a tournament's pairings",
    response_model=CheckRead,
    responses=RESPONSES,
    dependencies=[Depends(import_slot, scope="function")],
)
def check_tournament(body: CheckRequest, session: SessionDep, request: Request) -> CheckRead:
    """Every Swiss round paired again, by the tournament's system, from the rounds before it;
    each round whose pairing differs is listed with both pairings. Nothing is stored; no token
    (a check is a read). Or a TRF file (`Content-Type: text/plain`): its rounds checked by
    `dutch` (422 `invalid_trf` for a file that does not read). 503 `pairing_timeout` past
    `SVIZZERA_CHECK_TIMEOUT` of CPU time, `busy` while the worker reads another file."""
    return checks.check_tournament(session, body.tournament, deadline=check_deadline(request))
