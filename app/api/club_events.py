"""/v1/clubs/{id}/events: the club's event outbox, read in order (club key; docs/events.md,
"Club events")."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.clubs import KEY_READ, ClubId, ClubKeyDep
from app.api.deps import SessionDep
from app.api.routing import CommittingRoute
from app.inputs import MAX_INTEGER
from app.read_models import ClubEventPage, ClubEventRead
from app.services import club_events

router = APIRouter(prefix="/v1/clubs/{club_id}", tags=["club-events"], route_class=CommittingRoute)


@router.get(
    "/events",
    operation_id="club-events-list",
    summary="The club's events after a sequence number (club key)",
    response_model=ClubEventPage,
    responses=KEY_READ,
)
def list_club_events(
    club_id: ClubId,
    write: ClubKeyDep,
    session: SessionDep,
    after: Annotated[
        int, Query(ge=0, le=MAX_INTEGER, description="Only events with a higher `id`")
    ] = 0,
    limit: Annotated[int, Query(ge=1, le=500, description="Page size")] = 100,
) -> ClubEventPage:
    """Club-level changes, oldest first: `rating.updated` (and `season.updated`). Poll with the
    last `id` seen as `after`; `next_after` is set while a full page came back."""
    found = club_events.events_after(session, write.club_id, after, limit)
    return ClubEventPage(
        items=[
            ClubEventRead(
                id=e.seq, club_id=e.club_id, type=e.type, created_at=e.created_at, data=e.data
            )
            for e in found
        ],
        next_after=found[-1].seq if len(found) == limit else None,
    )
