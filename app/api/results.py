"""Results: ``…/matches/{match_id}/result`` (record, correct, clear one) and ``…/results``
(several at once)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from app.api.deps import ResultWriterDep, SessionDep
from app.api.responses import WRITE
from app.api.routing import CommittingRoute
from app.api.schemas import ResultsBatch, ResultWrite
from app.inputs import MAX_INTEGER
from app.read_models import MatchRead
from app.services import results, views

router = APIRouter(
    prefix="/v1/tournaments/{tournament_id}", tags=["results"], route_class=CommittingRoute
)
MatchId = Annotated[
    int, Path(ge=1, le=MAX_INTEGER, description="The match's id in this tournament")
]


@router.put(
    "/matches/{match_id}/result",
    operation_id="results-record",
    summary="Record or correct a result",
    response_model=MatchRead,
    responses=WRITE,
)
def record_result(
    match_id: MatchId, body: ResultWrite, writer: ResultWriterDep, session: SessionDep
) -> MatchRead:
    """Swiss results change only in the latest round (`round_locked`); a level final-phase score
    names its `winner` (`winner_required`). Send `If-Match` with the ETag you read to avoid
    overwriting a change you have not seen (412)."""
    match = results.record(
        session,
        writer,
        match_id,
        home=body.home,
        away=body.away,
        winner=body.winner,
        decided_by=body.decided_by,
        forfeit=body.forfeit,
    )
    return views.match(match)


@router.delete(
    "/matches/{match_id}/result",
    operation_id="results-clear",
    summary="Clear a result",
    response_model=MatchRead,
    responses=WRITE,
)
def clear_result(match_id: MatchId, writer: ResultWriterDep, session: SessionDep) -> MatchRead:
    """Same correction rules as recording; answers the match without its result."""
    match = results.clear(session, writer, match_id)
    return views.match(match)


@router.post(
    "/results",
    operation_id="results-record-batch",
    summary="Record several results at once",
    response_model=list[MatchRead],
    responses=WRITE,
)
def record_results(
    body: ResultsBatch, writer: ResultWriterDep, session: SessionDep
) -> list[MatchRead]:
    """A round's results in one request, in order, all or nothing: if one is refused, none is
    recorded and the problem's `detail` names it (`results[3] (match 7): …`). Each recorded
    result emits its own `result.*` event. Answers the matches in the order sent."""
    entries = [
        (
            e.match_id,
            results.result_of(e.home, e.away, e.winner, e.decided_by, e.forfeit),
        )
        for e in body.results
    ]
    _, matches = results.record_many(session, writer, entries)
    return [views.match(m) for m in matches]
