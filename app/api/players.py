"""/v1/tournaments/{id}/players: list, add (also late entry), rename, withdraw, delete, and
the byes a player asks for."""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Path, Query, Response, status

from app.api.club_schemas import RegisterPlayer
from app.api.deps import OrganizerDep, SessionDep, TournamentDep
from app.api.responses import READ, WRITE
from app.api.routing import CommittingRoute
from app.api.schemas import ByeRequest, PlayerCreate, PlayerUpdate
from app.inputs import MAX_INTEGER, NO_CONTROL_CHARACTERS
from app.read_models import PlayerRead
from app.services import club_tournaments, players, storage, views

router = APIRouter(
    prefix="/v1/tournaments/{tournament_id}/players", tags=["players"], route_class=CommittingRoute
)
PlayerId = Annotated[
    int, Path(description="The player's id in this tournament", ge=1, le=MAX_INTEGER)
]
RoundNumber = Annotated[int, Path(description="A Swiss round", ge=1, le=MAX_INTEGER)]


@router.get(
    "",
    operation_id="players-list",
    summary="List players",
    response_model=list[PlayerRead],
    responses=READ,
)
def list_players(
    header: TournamentDep,
    session: SessionDep,
    player_status: Annotated[
        Literal["active", "withdrawn"] | None,
        Query(alias="status", description="`active` or `withdrawn` players only"),
    ] = None,
    q: Annotated[
        str | None,
        Query(
            min_length=1,
            max_length=80,
            pattern=NO_CONTROL_CHARACTERS,
            description="Only names containing this (any case)",
        ),
    ] = None,
) -> list[PlayerRead]:
    """By start number; the whole field in one answer (at most 4096 players, no pages)."""
    found = views.players(storage.load(session, header.id))
    if player_status is not None:
        found = [p for p in found if p.withdrawn == (player_status == "withdrawn")]
    if q is not None:
        found = [p for p in found if q.casefold() in p.name.casefold()]
    return found


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="players-create",
    summary="Add a player (registration, or late entry until half the Swiss rounds)",
    response_model=PlayerRead,
    responses=WRITE,
)
def add_player(
    body: RegisterPlayer | PlayerCreate, write: OrganizerDep, session: SessionDep
) -> PlayerRead:
    """In registration; later as a late entry (paired from the next round) until half the
    Swiss rounds are generated (409 `registration_closed`). Names are unique (409
    `duplicate_name`). In a club's tournament, `{"club_player_id": …}` takes a register entry,
    and a name is its entry, or joins the register, as at creation (docs/clubs.md); in any
    other, `club_player_id` is 422 `not_a_club_tournament`."""
    player = club_tournaments.add_player(session, write, body.model_dump())
    return views.player(player)


@router.patch(
    "/{player_id}",
    operation_id="players-update",
    summary="Rename, withdraw or check in a player, or change their team",
    response_model=PlayerRead,
    responses=WRITE,
)
def update_player(
    player_id: PlayerId, body: PlayerUpdate, write: OrganizerDep, session: SessionDep
) -> PlayerRead:
    """`{"name": …}` renames; `{"withdrawn": true}` withdraws (not paired from the next round);
    `{"team": …}` puts the player in a team (`""` or `null`: in none), acting on the rounds not
    paired yet; `{"checked_in": true}` (or false) puts the player on (or off) round 1's
    check-in list, in registration only (409 `registration_closed` later): where the tournament
    has `pair_checked_in_only`, round 1 pairs only the players on it; `{"members": [a, b]}`
    names a team entry's two players anew (doubles), at any time."""
    team: dict[str, str | None] = (
        {"team": body.team or None} if "team" in body.model_fields_set else {}
    )
    player = players.update(
        session,
        write,
        player_id,
        name=body.name,
        withdraw=bool(body.withdrawn),
        checked_in=body.checked_in,
        members=body.members,
        **team,
    )
    return views.player(player)


@router.delete(
    "/{player_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="players-delete",
    summary="Delete a player during registration",
    responses=WRITE,
)
def delete_player(player_id: PlayerId, write: OrganizerDep, session: SessionDep) -> Response:
    """Only in registration; later, withdraw the player instead (`PATCH` with
    `{"withdrawn": true}`)."""
    players.remove(session, write, player_id)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.put(
    "/{player_id}/byes/{number}",
    operation_id="players-bye-request",
    summary="Ask for a bye in a round not paired yet",
    response_model=PlayerRead,
    responses=WRITE,
)
def request_bye(
    player_id: PlayerId,
    number: RoundNumber,
    body: ByeRequest,
    write: OrganizerDep,
    session: SessionDep,
) -> PlayerRead:
    """The player will not play round `number`: not paired in it, they score the bye's points
    (`half_point`: a draw's, `zero_point`: none). Asking again replaces the kind. Refused for a
    round already paired (409 `round_locked`), past the format's rounds (404
    `round_not_found`), for a withdrawn player (409 `already_withdrawn`), after the final phase
    started (409 `wrong_status`), and for a kind the tournament's `allowed_byes` does not list
    (422 `bye_not_allowed`)."""
    return views.player(players.request_bye(session, write, player_id, number, body.kind))


@router.delete(
    "/{player_id}/byes/{number}",
    operation_id="players-bye-cancel",
    summary="Take back a bye asked for",
    response_model=PlayerRead,
    responses=WRITE,
)
def cancel_bye(
    player_id: PlayerId, number: RoundNumber, write: OrganizerDep, session: SessionDep
) -> PlayerRead:
    """The player is paired in round `number` again (nothing to take back is fine); refused
    once the round is paired (409 `round_locked`)."""
    return views.player(players.cancel_bye(session, write, player_id, number))
