"""/v1/tournaments: create, list, read, change, delete; the audit trail."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Header, Query, Response, status

from app.api import paging
from app.api.cache import body_etag, conditional
from app.api.deps import (
    OrganizerDep,
    OrganizerReadDep,
    SessionDep,
    TournamentDep,
    check_create_key,
    create_quota,
    etag,
)
from app.api.responses import READ, WRITE, problems
from app.api.routing import CommittingRoute
from app.api.schemas import TournamentCreate, TournamentUpdate
from app.domain.types import Status
from app.inputs import NO_CONTROL_CHARACTERS
from app.read_models import (
    AuditEntryRead,
    AuditPage,
    TournamentCreated,
    TournamentPage,
    TournamentRead,
)
from app.services import audit, tournaments, views

router = APIRouter(prefix="/v1/tournaments", tags=["tournaments"], route_class=CommittingRoute)
IfNoneMatch = Annotated[str | None, Header(description="An ETag from an earlier read")]
NameContains = Annotated[
    str | None,
    Query(
        min_length=1,
        max_length=80,
        pattern=NO_CONTROL_CHARACTERS,
        description="Only names containing this (any case)",
    ),
]


def _read(session: SessionDep, tournament_id: str) -> TournamentRead:
    return views.tournament(tournaments.summaries(session, [tournament_id])[0])


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="tournaments-create",
    summary="Create a tournament",
    response_model=TournamentCreated,
    responses=problems(401, 403, 409, 413, 429),
    dependencies=[Depends(check_create_key), Depends(create_quota)],
)
def create_tournament(
    body: TournamentCreate, session: SessionDep, response: Response
) -> TournamentCreated:
    """Players and settings in; the tournament and its `organizer_token` (shown this once) out.
    Or a TRF file (`Content-Type: text/plain`): a `dutch` tournament with its whole history;
    a file that does not read is refused with 422 `invalid_trf`, naming its line and column."""
    fields = body.model_dump(exclude={"name", "players"}, exclude_unset=True)
    created = tournaments.create(
        session, name=body.name, players=[p.model_dump() for p in body.players], fields=fields
    )
    return created_answer(session, created, response)


def created_answer(
    session: SessionDep, created: tournaments.Created, response: Response
) -> TournamentCreated:
    """The answer to a creation: the tournament as read, its players, the organizer token."""
    read = _read(session, created.id)
    response.headers["Location"] = f"/v1/tournaments/{created.id}"
    response.headers["ETag"] = etag(read.version)
    return TournamentCreated(
        **read.model_dump(),
        organizer_token=created.token,
        players=views.players(created.tournament),
    )


@router.get(
    "",
    operation_id="tournaments-list",
    summary="List tournaments, newest first",
    response_model=TournamentPage,
    responses=problems(304),
)
def list_tournaments(
    session: SessionDep,
    status: Annotated[Status | None, Query(description="Only tournaments in this status")] = None,
    q: NameContains = None,
    limit: paging.Limit = 20,
    cursor: paging.Cursor = None,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Filter by `status` and by `q` (part of the name); pass the same filters with `cursor`.
    The ETag is the page's hash: `If-None-Match` answers 304 while the page is unchanged."""
    ids, next_cursor = tournaments.page(
        session, limit=limit, cursor=cursor, status=status, name_contains=q
    )
    items = [views.tournament(summary) for summary in tournaments.summaries(session, ids)]
    body = TournamentPage(items=items, next_cursor=next_cursor).model_dump_json().encode()
    return conditional(body, body_etag(body), if_none_match)


@router.get(
    "/{tournament_id}",
    operation_id="tournaments-read",
    summary="Read a tournament",
    response_model=TournamentRead,
    responses=READ,
)
def read_tournament(header: TournamentDep, session: SessionDep) -> TournamentRead:
    """Settings, resolved format, status, current round, seed and the tiebreak in use."""
    return _read(session, header.id)


@router.patch(
    "/{tournament_id}",
    operation_id="tournaments-update",
    summary="Rename; change settings during registration",
    response_model=TournamentRead,
    responses=WRITE,
)
def update_tournament(
    body: TournamentUpdate, write: OrganizerDep, session: SessionDep
) -> TournamentRead:
    """The name at any time; settings (pairing, tiebreak, points, format) only in
    registration (409 `registration_closed`)."""
    fields = body.model_dump(exclude={"name"}, exclude_unset=True)
    tournaments.update(session, write, name=body.name, fields=fields)
    return _read(session, write.tournament_id)


@router.delete(
    "/{tournament_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="tournaments-delete",
    summary="Delete a tournament",
    responses=WRITE,
)
def delete_tournament(write: OrganizerDep, session: SessionDep) -> Response:
    """The tournament and everything in it: players, rounds, results, events, tokens."""
    tournaments.remove(session, write)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "/{tournament_id}/audit",
    operation_id="audit-list",
    summary="The audit trail (organizer only)",
    response_model=AuditPage,
    responses=problems(304, 401, 403, 404),
)
def list_audit(
    header: OrganizerReadDep,
    session: SessionDep,
    limit: paging.Limit = 100,
    cursor: paging.Cursor = None,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Every accepted write, oldest first: who, what and when. Every write bumps the version,
    so `If-None-Match` with the tournament's ETag answers 304 until the next one."""
    found = audit.entries(session, header.id, after=paging.decode_id(cursor), limit=limit + 1)
    items = [AuditEntryRead(**{**e, "at": views.aware(e["at"])}) for e in found[:limit]]
    page = AuditPage(items=items, next_cursor=paging.next_cursor([e["id"] for e in found], limit))
    return conditional(page.model_dump_json().encode(), etag(header.version), if_none_match)
