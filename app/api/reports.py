"""Players report results: ``…/matches/{match_id}/claims`` (a claim with the board's code) and
``…/claims`` (the boards with claims, for the organizer)."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Request
from sqlalchemy.orm import Session

from app.api.deps import OrganizerReadDep, SessionDep, TournamentId
from app.api.report_schemas import BoardClaimsRead, ClaimAnswer, ClaimWrite, SideClaimRead
from app.api.responses import problems
from app.api.results import MatchId
from app.api.routing import CommittingRoute
from app.domain.types import Result
from app.services import quotas, reports, storage, views
from app.settings import Settings

router = APIRouter(
    prefix="/v1/tournaments/{tournament_id}", tags=["reports"], route_class=CommittingRoute
)


def report_quota(request: Request, tournament_id: TournamentId, match_id: MatchId) -> None:
    """``SVIZZERA_REPORT_RATE`` claims a minute per client address and
    ``SVIZZERA_REPORT_BOARD_RATE`` per board (429 past either), counted in a transaction of
    their own: a claim refused afterwards (a wrong code) counts too, so codes cannot be
    guessed for free."""
    settings: Settings = request.app.state.settings
    address = request.client.host if request.client is not None else "unknown"
    with Session(request.app.state.engine) as session, session.begin():
        quotas.count_report(
            session,
            address=address,
            board=f"{tournament_id}/{match_id}",
            per_client=settings.report_rate,
            per_board=settings.report_board_rate,
            now=storage.now(),
        )


@router.post(
    "/matches/{match_id}/claims",
    operation_id="claims-create",
    summary="Report a board's result as a player",
    response_model=ClaimAnswer,
    responses=problems(403, 404, 409, 413, 429, 503),
    dependencies=[Depends(report_quota)],
)
def create_claim(
    tournament_id: TournamentId, match_id: MatchId, body: ClaimWrite, session: SessionDep
) -> ClaimAnswer:
    """With `player_results` on, a player sends the board's result with its code (from the
    table card); the opponent sends the same result with the same code to confirm it, and it
    is recorded as the organizer's `PUT …/result` would record it. Two different claims make
    the board `disputed`: the organizer's `PUT …/result` settles it (a side may also change
    its claim to the other's). Refusals: `player_results_off` (409), `wrong_board_code` (403),
    `result_already_recorded`, `round_locked`, `not_a_swiss_board` (409), and
    `too_many_requests` (429) past the quota of a client address or of a board."""
    claimed = reports.claim(
        session,
        tournament_id,
        match_id,
        code=body.code,
        side=body.side,
        result=Result(body.home, body.away),
    )
    return ClaimAnswer(step=claimed.step, state=claimed.state, match=views.match(claimed.match))


@router.get(
    "/claims",
    operation_id="claims-list",
    summary="List the boards with players' claims",
    response_model=list[BoardClaimsRead],
    responses=problems(401, 403, 404),
)
def list_claims(header: OrganizerReadDep, session: SessionDep) -> list[BoardClaimsRead]:
    """Every board with a claim and no result yet, by match id (organizer only): `pending`
    (one side's claim) or `disputed` (both sides', different), with each side's claim.
    `PUT …/matches/{id}/result` settles a board."""

    def side(claim: reports.SideClaim | None) -> SideClaimRead | None:
        if claim is None:
            return None
        r = claim.result
        return SideClaimRead(home=r.home_goals, away=r.away_goals, claimed_at=claim.claimed_at)

    return [
        BoardClaimsRead(
            match=views.match(b.match),
            state=b.state,
            home_claim=side(b.home),
            away_claim=side(b.away),
        )
        for b in reports.board_claims(session, header.id)
    ]
