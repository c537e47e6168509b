"""/v1/clubs/{id}/players: the club's player register: add, search, read, change, merge
(docs/clubs.md). It holds people's data, so every call needs a key of the club."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, Response, status

from app.api import paging
from app.api.club_schemas import ClubPlayerCreate, ClubPlayerMerge, ClubPlayerUpdate
from app.api.clubs import KEY_WRITE, ClubKeyDep
from app.api.deps import SessionDep
from app.api.responses import problems
from app.api.routing import CommittingRoute
from app.domain.register import RegisterEntry
from app.domain.types import FideTitle
from app.inputs import MAX_INTEGER, NO_CONTROL_CHARACTERS
from app.read_models import AppearanceRead, ClubPlayerDetail, ClubPlayerPage, ClubPlayerRead
from app.services import register

router = APIRouter(
    prefix="/v1/clubs/{club_id}/players", tags=["club-players"], route_class=CommittingRoute
)
EntryId = Annotated[int, Path(ge=1, le=MAX_INTEGER, description="The register entry's id")]


def entry_read(entry: RegisterEntry) -> ClubPlayerRead:
    return ClubPlayerRead(
        id=entry.id,
        name=entry.name,
        aliases=list(entry.aliases),
        rating=entry.rating,
        title=FideTitle(entry.title) if entry.title else None,
        fide_id=entry.fide_id,
        team=entry.team,
    )


def entry_detail(session: SessionDep, entry: RegisterEntry) -> ClubPlayerDetail:
    played = register.appearances(session, entry.id)
    return ClubPlayerDetail(
        **entry_read(entry).model_dump(),
        tournaments=[
            AppearanceRead(
                tournament_id=a.tournament_id,
                tournament_name=a.tournament_name,
                player_id=a.player_id,
                name=a.name,
            )
            for a in played
        ],
    )


@router.get(
    "",
    operation_id="club-players-list",
    summary="Search the register",
    response_model=ClubPlayerPage,
    responses=problems(401, 403, 404),
)
def list_entries(
    write: ClubKeyDep,
    session: SessionDep,
    q: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=80,
            pattern=NO_CONTROL_CHARACTERS,
            description="Only entries one of whose names (name or alias) contains this, "
            "accents, case and punctuation aside (`muller` finds Müller)",
        ),
    ] = None,
    limit: paging.Limit = 20,
    cursor: paging.Cursor = None,
) -> ClubPlayerPage:
    """In name order, accents and case aside; pass the same `q` with `cursor`."""
    items, next_cursor = register.search(session, write.club_id, q=q, limit=limit, cursor=cursor)
    return ClubPlayerPage(items=[entry_read(e) for e in items], next_cursor=next_cursor)


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="club-players-create",
    summary="Add a person to the register",
    response_model=ClubPlayerRead,
    responses=KEY_WRITE,
)
def add_entry(
    body: ClubPlayerCreate, write: ClubKeyDep, session: SessionDep, response: Response
) -> ClubPlayerRead:
    """Namesakes are allowed (tell them apart by an alias, a team, a FIDE id); an alias equal
    to the name, or given twice, is kept once."""
    entry = register.add(
        session,
        write,
        name=body.name,
        aliases=body.aliases,
        rating=body.rating,
        title=body.title.value if body.title else None,
        fide_id=body.fide_id,
        team=body.team or None,
    )
    response.headers["Location"] = f"/v1/clubs/{write.club_id}/players/{entry.id}"
    return entry_read(entry)


@router.get(
    "/{player_id}",
    operation_id="club-players-read",
    summary="Read a register entry and the tournaments it played",
    response_model=ClubPlayerDetail,
    responses=problems(401, 403, 404),
)
def read_entry(player_id: EntryId, write: ClubKeyDep, session: SessionDep) -> ClubPlayerDetail:
    """The entry, and as whom it played each tournament of the club, oldest first."""
    return entry_detail(session, register.get(session, write.club_id, player_id))


@router.patch(
    "/{player_id}",
    operation_id="club-players-update",
    summary="Change a register entry",
    response_model=ClubPlayerRead,
    responses=KEY_WRITE,
)
def update_entry(
    player_id: EntryId, body: ClubPlayerUpdate, write: ClubKeyDep, session: SessionDep
) -> ClubPlayerRead:
    """The fields given change; tournaments already made keep the names they were made with.
    A new `rating` is where the entry's club rating starts: the club is rated again from the
    first tournament the entry played."""
    changes = body.model_dump(exclude_unset=True, mode="json")
    if "team" in changes:
        changes["team"] = changes["team"] or None
    return entry_read(register.change(session, write, player_id, changes))


@router.post(
    "/{player_id}/merge",
    operation_id="club-players-merge",
    summary="Merge another entry into this one",
    response_model=ClubPlayerDetail,
    responses=KEY_WRITE,
)
def merge_entries(
    player_id: EntryId, body: ClubPlayerMerge, write: ClubKeyDep, session: SessionDep
) -> ClubPlayerDetail:
    """The same person entered twice: `merged_id` goes, its tournament players point here
    (every past result stays), its names become aliases, and values this entry lacks come
    from it. Refused (409) for the entry itself (`merge_with_itself`), two FIDE ids
    (`merge_different_fide_ids`), or two entries that played one tournament
    (`merge_played_together`)."""
    entry = register.merge(session, write, player_id, body.merged_id)
    return entry_detail(session, entry)
