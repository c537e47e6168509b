"""/v1/tournaments/{id}/tokens: scorekeeper tokens; /organizer-token: rotate the organizer's."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Response, status

from app.api.deps import OrganizerDep, OrganizerReadDep, SessionDep
from app.api.responses import WRITE, problems
from app.api.routing import CommittingRoute
from app.api.token_schemas import OrganizerTokenRotated, TokenCreate, TokenCreated, TokenRead
from app.inputs import MAX_INTEGER
from app.services import tokens

router = APIRouter(
    prefix="/v1/tournaments/{tournament_id}", tags=["tokens"], route_class=CommittingRoute
)
TokenId = Annotated[int, Path(ge=1, le=MAX_INTEGER, description="The scorekeeper token's id")]


def read(token: tokens.Token) -> TokenRead:
    return TokenRead(
        id=token.id,
        kind="scorekeeper",
        label=token.label,
        created_at=token.created_at,
        revoked_at=token.revoked_at,
    )


@router.post(
    "/tokens",
    status_code=status.HTTP_201_CREATED,
    operation_id="tokens-create",
    summary="Create a scorekeeper token",
    response_model=TokenCreated,
    responses=WRITE,
)
def create_token(
    body: TokenCreate, write: OrganizerDep, session: SessionDep, response: Response
) -> TokenCreated:
    """A token for a scorekeeper at a table: it records and clears results (one or a batch)
    and nothing else. The secret is in this answer only; the audit trail names its writes
    `scorekeeper:<id>`. At most 100 per tournament (409 `too_many_tokens`)."""
    token, secret = tokens.create(session, write, label=body.label)
    response.headers["Location"] = f"/v1/tournaments/{write.tournament_id}/tokens/{token.id}"
    return TokenCreated(**read(token).model_dump(), token=secret)


@router.get(
    "/tokens",
    operation_id="tokens-list",
    summary="List the scorekeeper tokens",
    response_model=list[TokenRead],
    responses=problems(401, 403, 404),
)
def list_tokens(header: OrganizerReadDep, session: SessionDep) -> list[TokenRead]:
    """Every scorekeeper token, revoked ones too, oldest first (organizer only, no secrets)."""
    return [read(t) for t in tokens.listed(session, header.id)]


@router.delete(
    "/tokens/{token_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="tokens-revoke",
    summary="Revoke a scorekeeper token",
    responses=WRITE,
)
def revoke_token(token_id: TokenId, write: OrganizerDep, session: SessionDep) -> Response:
    """It stops working at once (its next write is 403); revoking it again changes nothing."""
    tokens.revoke(session, write, token_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.post(
    "/organizer-token",
    operation_id="organizer-token-rotate",
    summary="Rotate the organizer token",
    response_model=OrganizerTokenRotated,
    responses=WRITE,
)
def rotate_organizer_token(write: OrganizerDep, session: SessionDep) -> OrganizerTokenRotated:
    """A new organizer token, in this answer only; the one used for this call stops working at
    once. Scorekeeper tokens keep working."""
    return OrganizerTokenRotated(organizer_token=tokens.rotate_organizer(session, write))
