"""/v1/clubs: create a club, read and rename it, its tournaments (list, create with a club
key), its keys (create, list, rotate, revoke) and its audit trail (docs/clubs.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Header, Path, Query, Response, status

from app.api import paging
from app.api.cache import body_etag, conditional
from app.api.club_schemas import ClubCreate, ClubTournamentCreate, ClubUpdate
from app.api.deps import Credentials, SessionDep, check_create_key, create_quota
from app.api.responses import problems
from app.api.routing import CommittingRoute
from app.api.token_schemas import TokenCreate
from app.api.tournaments import created_answer
from app.domain.ratings.club import System
from app.domain.types import Status
from app.inputs import MAX_INTEGER, TOURNAMENT_ID
from app.read_models import (
    AuditEntryRead,
    AuditPage,
    ClubCreated,
    ClubKeyCreated,
    ClubKeyRead,
    ClubRead,
    TournamentCreated,
    TournamentPage,
)
from app.services import club_audit, club_tournaments, clubs, tournaments, views

router = APIRouter(prefix="/v1/clubs", tags=["clubs"], route_class=CommittingRoute)
ClubId = Annotated[str, Path(description="The club's id", pattern=TOURNAMENT_ID)]
KeyId = Annotated[int, Path(ge=1, le=MAX_INTEGER, description="The club key's id")]
IfNoneMatch = Annotated[str | None, Header(description="An ETag from an earlier read")]
KEY_WRITE = problems(401, 403, 404, 409, 413, 503)
KEY_READ = problems(304, 401, 403, 404)


def club_key(session: SessionDep, club_id: ClubId, credentials: Credentials) -> clubs.ClubWrite:
    """Checks that the bearer is a live key of this club (a tournament token is not)."""
    return clubs.check_key(session, club_id, credentials.credentials if credentials else None)


ClubKeyDep = Annotated[clubs.ClubWrite, Depends(club_key)]


def club_read(club: clubs.Club) -> ClubRead:
    return ClubRead(
        id=club.id,
        name=club.name,
        version=club.version,
        created_at=club.created_at,
        tournaments=f"/v1/clubs/{club.id}/tournaments",
        rating_system=club.rating.kind,
        elo_k=club.rating.k,
    )


def key_read(key: clubs.Key) -> ClubKeyRead:
    return ClubKeyRead(
        id=key.id, label=key.label, created_at=key.created_at, revoked_at=key.revoked_at
    )


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="clubs-create",
    summary="Create a club",
    response_model=ClubCreated,
    responses=problems(401, 403, 413, 429),
    dependencies=[Depends(check_create_key), Depends(create_quota)],
)
def create_club(body: ClubCreate, session: SessionDep, response: Response) -> ClubCreated:
    """A club and its first key, in this answer only (stored as a hash: keep it). Behind the
    create key and the creation quota, as creating a tournament is."""
    rating = System(body.rating_system, body.elo_k)
    club, key, secret = clubs.create(
        session, name=body.name, key_label=body.key_label, rating=rating
    )
    response.headers["Location"] = f"/v1/clubs/{club.id}"
    response.headers["ETag"] = f'"{club.version}"'
    return ClubCreated(
        **club_read(club).model_dump(), key=ClubKeyCreated(**key_read(key).model_dump(), key=secret)
    )


@router.get(
    "/{club_id}",
    operation_id="clubs-read",
    summary="Read a club",
    response_model=ClubRead,
    responses=problems(304, 404),
)
def read_club(club_id: ClubId, session: SessionDep, if_none_match: IfNoneMatch = None) -> Response:
    """Its name and where its tournaments are (public, as tournaments are)."""
    club = clubs.read(session, club_id)
    body = club_read(club).model_dump_json().encode()
    return conditional(body, f'"{club.version}"', if_none_match)


@router.patch(
    "/{club_id}",
    operation_id="clubs-update",
    summary="Rename a club, change its rating settings",
    response_model=ClubRead,
    responses=KEY_WRITE,
)
def update_club(body: ClubUpdate, write: ClubKeyDep, session: SessionDep) -> ClubRead:
    """A new name, rating system or Elo K (club key; the fields given). Its tournaments keep
    their names; new rating settings rate the club again from its first rated tournament."""
    club = clubs.update_club(
        session, write, name=body.name, rating_system=body.rating_system, elo_k=body.elo_k
    )
    return club_read(club)


@router.get(
    "/{club_id}/tournaments",
    operation_id="club-tournaments-list",
    summary="List the club's tournaments, newest first",
    response_model=TournamentPage,
    responses=problems(304, 404),
)
def list_club_tournaments(
    club_id: ClubId,
    session: SessionDep,
    status: Annotated[Status | None, Query(description="Only tournaments in this status")] = None,
    season: Annotated[
        int | None, Query(ge=1, le=MAX_INTEGER, description="Only tournaments of this season")
    ] = None,
    limit: paging.Limit = 20,
    cursor: paging.Cursor = None,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Public, as the tournaments are; pass the same `status` and `season` with `cursor`. The
    ETag is the page's hash."""
    clubs.read(session, club_id)
    ids, next_cursor = tournaments.page(
        session, limit=limit, cursor=cursor, status=status, club_id=club_id, season_id=season
    )
    items = [views.tournament(summary) for summary in tournaments.summaries(session, ids)]
    body = TournamentPage(items=items, next_cursor=next_cursor).model_dump_json().encode()
    return conditional(body, body_etag(body), if_none_match)


@router.post(
    "/{club_id}/tournaments",
    status_code=status.HTTP_201_CREATED,
    operation_id="club-tournaments-create",
    summary="Create a tournament of the club (club key)",
    response_model=TournamentCreated,
    responses=problems(401, 403, 404, 409, 413, 429, 503),
    dependencies=[Depends(create_quota)],
)
def create_club_tournament(
    body: ClubTournamentCreate, write: ClubKeyDep, session: SessionDep, response: Response
) -> TournamentCreated:
    """As `POST /v1/tournaments`, for the club: its players are register entries
    (`{"club_player_id": …}`) or names (a name that is exactly one entry's name or alias is
    that entry; a new one joins the register; several: 409 `ambiguous_club_player`). The
    answer has the tournament's own `organizer_token`; the club's keys are its organizers too."""
    fields = body.model_dump(exclude={"name", "players", "seed_by"}, exclude_unset=True)
    created = club_tournaments.create(
        session,
        write,
        name=body.name,
        players=[p.model_dump() for p in body.players],
        fields=fields,
        seed_by_club_rating=body.seed_by == "club_rating",
    )
    return created_answer(session, created, response)


@router.get(
    "/{club_id}/audit",
    operation_id="club-audit-list",
    summary="The club's audit trail (club key)",
    response_model=AuditPage,
    responses=KEY_READ,
)
def list_club_audit(
    write: ClubKeyDep,
    session: SessionDep,
    limit: paging.Limit = 100,
    cursor: paging.Cursor = None,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Every club-level write, oldest first: keys, register entries, merges, tournaments made
    (`club:<key id>` names who). Writes to a tournament are in its own trail."""
    found = club_audit.entries(
        session, write.club_id, after=paging.decode_id(cursor), limit=limit + 1
    )
    items = [AuditEntryRead(**{**e, "at": views.aware(e["at"])}) for e in found[:limit]]
    page = AuditPage(items=items, next_cursor=paging.next_cursor([e["id"] for e in found], limit))
    body = page.model_dump_json().encode()
    return conditional(body, body_etag(body), if_none_match)


# -- keys --------------------------------------------------------------------------------------


@router.post(
    "/{club_id}/keys",
    status_code=status.HTTP_201_CREATED,
    operation_id="club-keys-create",
    summary="Create a club key",
    response_model=ClubKeyCreated,
    responses=KEY_WRITE,
)
def create_key(
    body: TokenCreate, write: ClubKeyDep, session: SessionDep, response: Response
) -> ClubKeyCreated:
    """Another key of the club, with a label (every key may do everything the club may). The
    secret is in this answer only. At most 100 per club (409 `too_many_club_keys`)."""
    key, secret = clubs.create_key(session, write, label=body.label)
    response.headers["Location"] = f"/v1/clubs/{write.club_id}/keys/{key.id}"
    return ClubKeyCreated(**key_read(key).model_dump(), key=secret)


@router.get(
    "/{club_id}/keys",
    operation_id="club-keys-list",
    summary="List the club's keys",
    response_model=list[ClubKeyRead],
    responses=problems(401, 403, 404),
)
def list_keys(write: ClubKeyDep, session: SessionDep) -> list[ClubKeyRead]:
    """Every key, revoked ones too, oldest first (club key only, no secrets)."""
    return [key_read(k) for k in clubs.keys(session, write.club_id)]


@router.post(
    "/{club_id}/keys/{key_id}/rotate",
    operation_id="club-keys-rotate",
    summary="Rotate a club key",
    response_model=ClubKeyCreated,
    responses=KEY_WRITE,
)
def rotate_key(key_id: KeyId, write: ClubKeyDep, session: SessionDep) -> ClubKeyCreated:
    """A new secret for the key (same id and label), in this answer only; the old one stops
    working at once."""
    key, secret = clubs.rotate_key(session, write, key_id)
    return ClubKeyCreated(**key_read(key).model_dump(), key=secret)


@router.delete(
    "/{club_id}/keys/{key_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="club-keys-revoke",
    summary="Revoke a club key",
    responses=KEY_WRITE,
)
def revoke_key(key_id: KeyId, write: ClubKeyDep, session: SessionDep) -> Response:
    """It stops working at once, on the club and its tournaments; revoking it again changes
    nothing. The last live key cannot be revoked (409 `last_club_key`): rotate it instead."""
    clubs.revoke_key(session, write, key_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)
