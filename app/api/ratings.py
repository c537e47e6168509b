"""/v1/clubs/{id}/ratings and …/players/{id}/history: the club's rating list and one register
entry's rating history (docs/clubs.md, "Ratings"). They name the register's people, so, as the
register, they need a key of the club."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Path, Response

from app.api import paging
from app.api.cache import body_etag, conditional
from app.api.clubs import KEY_READ, ClubId, ClubKeyDep
from app.api.deps import SessionDep
from app.api.routing import CommittingRoute
from app.inputs import MAX_INTEGER
from app.read_models import ClubRatingPage, ClubRatingRead, RatingHistoryPage, RatingStepRead
from app.services import rating_reads, ratings

router = APIRouter(prefix="/v1/clubs/{club_id}", tags=["club-ratings"], route_class=CommittingRoute)
EntryId = Annotated[int, Path(ge=1, le=MAX_INTEGER, description="The register entry's id")]
IfNoneMatch = Annotated[str | None, Header(description="An ETag from an earlier read")]


@router.get(
    "/ratings",
    operation_id="club-ratings-list",
    summary="The club's rating list, best first (club key)",
    response_model=ClubRatingPage,
    responses=KEY_READ,
)
def list_ratings(
    club_id: ClubId,
    write: ClubKeyDep,
    session: SessionDep,
    limit: paging.Limit = 20,
    cursor: paging.Cursor = None,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """Every register entry that played a rated tournament of the club: its rating, games,
    last change (and RD under Glicko-2), best first. The ETag is the page's hash."""
    found, next_cursor = rating_reads.page(session, write.club_id, limit=limit, cursor=cursor)
    page = ClubRatingPage(
        rating_system=ratings.system_of(session, write.club_id).kind,
        items=[
            ClubRatingRead(
                club_player_id=s.club_player_id,
                name=s.name,
                rating=s.rating,
                deviation=s.deviation,
                games=s.games,
                last_change=s.last_change,
                last_tournament_id=s.last_tournament_id,
            )
            for s in found
        ],
        next_cursor=next_cursor,
    )
    body = page.model_dump_json().encode()
    return conditional(body, body_etag(body), if_none_match)


@router.get(
    "/players/{player_id}/history",
    operation_id="club-ratings-history",
    summary="A register entry's rating after each tournament (club key)",
    response_model=RatingHistoryPage,
    responses=KEY_READ,
)
def rating_history(
    club_id: ClubId,
    player_id: EntryId,
    write: ClubKeyDep,
    session: SessionDep,
    limit: paging.Limit = 100,
    cursor: paging.Cursor = None,
    if_none_match: IfNoneMatch = None,
) -> Response:
    """The entry's rating before and after each rated tournament it played, oldest first, with
    its games, score and performance rating there."""
    steps, last = rating_reads.history(
        session, write.club_id, player_id, limit=limit, after=paging.decode_id(cursor)
    )
    page = RatingHistoryPage(
        club_player_id=player_id,
        items=[
            RatingStepRead(
                tournament_id=s.tournament_id,
                tournament_name=s.tournament_name,
                rated_at=s.rated_at,
                rating_before=s.rating_before,
                rating=s.rating,
                deviation=s.deviation,
                games=s.games,
                score=s.score,
                performance=s.performance,
            )
            for s in steps
        ],
        next_cursor=paging.encode_id(last) if last is not None else None,
    )
    body = page.model_dump_json().encode()
    return conditional(body, body_etag(body), if_none_match)
