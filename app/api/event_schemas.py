"""The event bodies in OpenAPI: the envelope and the data of each type.

Every channel sends the same envelope (the SSE ``data:`` line, a webhook delivery's body), so
each type is documented once, in the ``webhooks`` section of the OpenAPI 3.1 document: a
tournament's events, and a club's (``rating.updated``, ``season.updated``, whose envelope names
the club instead of a tournament). The data of each type is a read model
(``app.read_models``), made of the REST API's own schemas.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from fastapi import FastAPI
from pydantic import BaseModel, Field, create_model

from app.read_models import (
    ByeData,
    ClockData,
    ClubEventRead,
    FinalPhaseStartedData,
    ForbiddenPairData,
    PlayerData,
    RatingUpdatedData,
    ReportData,
    ResultData,
    RoundGeneratedData,
    RoundPairedManuallyData,
    RoundUndoneData,
    SeasonDeletedData,
    SeasonUpdatedData,
    TournamentCreatedData,
    TournamentFinishedData,
)
from app.services import club_events, events

# -- data of each type -------------------------------------------------------------------------

DATA: dict[str, type[BaseModel]] = {
    events.TOURNAMENT_CREATED: TournamentCreatedData,
    events.ROUND_GENERATED: RoundGeneratedData,
    events.ROUND_UNDONE: RoundUndoneData,
    events.ROUND_PAIRED_MANUALLY: RoundPairedManuallyData,
    events.CLOCK_STARTED: ClockData,
    events.CLOCK_PAUSED: ClockData,
    events.CLOCK_RESUMED: ClockData,
    events.CLOCK_ENDED: ClockData,
    events.RESULT_RECORDED: ResultData,
    events.RESULT_CORRECTED: ResultData,
    events.RESULT_CLEARED: ResultData,
    events.REPORT_CLAIMED: ReportData,
    events.REPORT_CONFIRMED: ReportData,
    events.REPORT_DISPUTED: ReportData,
    events.PLAYER_WITHDRAWN: PlayerData,
    events.PLAYER_ADDED: PlayerData,
    events.PLAYER_UPDATED: PlayerData,
    events.BYE_REQUESTED: ByeData,
    events.BYE_CANCELLED: ByeData,
    events.FORBIDDEN_PAIR_ADDED: ForbiddenPairData,
    events.FORBIDDEN_PAIR_REMOVED: ForbiddenPairData,
    events.FINAL_PHASE_STARTED: FinalPhaseStartedData,
    events.TOURNAMENT_FINISHED: TournamentFinishedData,
}
CLUB_DATA: dict[str, type[BaseModel]] = {
    club_events.RATING_UPDATED: RatingUpdatedData,
    club_events.SEASON_UPDATED: SeasonUpdatedData,
    club_events.SEASON_DELETED: SeasonDeletedData,
}

SUMMARIES = {
    events.TOURNAMENT_CREATED: "A tournament was created",
    events.ROUND_GENERATED: "A Swiss round was generated (by its system, or by hand: "
    "`round.manual`)",
    events.ROUND_UNDONE: "The latest Swiss round was taken back (none of its results recorded)",
    events.ROUND_PAIRED_MANUALLY: "The latest Swiss round's boards and byes were replaced by "
    "hand (none of its results recorded)",
    events.CLOCK_STARTED: "The organizer started a round's clock",
    events.CLOCK_PAUSED: "The organizer paused a round's clock",
    events.CLOCK_RESUMED: "The organizer resumed a round's paused clock",
    events.CLOCK_ENDED: "The organizer ended a round's clock",
    events.RESULT_RECORDED: "A result was recorded",
    events.RESULT_CORRECTED: "A recorded result was changed",
    events.RESULT_CLEARED: "A result was cleared",
    events.REPORT_CLAIMED: "A player claimed a board's result; it waits for the opponent's "
    "confirmation",
    events.REPORT_CONFIRMED: "The opponent confirmed the claim: the result is recorded (its "
    "`result.recorded` comes just before)",
    events.REPORT_DISPUTED: "The two players of a board claimed different results: the "
    "organizer decides",
    events.PLAYER_WITHDRAWN: "A player withdrew",
    events.PLAYER_ADDED: "A player was added (registration or late entry)",
    events.PLAYER_UPDATED: "A player was renamed, put in a team or checked in or out",
    events.BYE_REQUESTED: "A player asked for a bye in a round not paired yet, or for another kind",
    events.BYE_CANCELLED: "A player took back the bye asked for in a round not paired yet",
    events.FORBIDDEN_PAIR_ADDED: "The organizer listed two players as a forbidden pair",
    events.FORBIDDEN_PAIR_REMOVED: "The organizer took a forbidden pair off the list",
    events.FINAL_PHASE_STARTED: "The final phase started",
    events.TOURNAMENT_FINISHED: "The tournament finished: the final ranking is decided",
    club_events.RATING_UPDATED: "A club's ratings moved: a tournament of the club was rated, or "
    "the club was rated again (a club event)",
    club_events.SEASON_UPDATED: "A club's season table may have changed (a club event)",
    club_events.SEASON_DELETED: "A club's season was deleted; its tournaments stay, in no "
    "season (a club event)",
}


# -- the envelope ------------------------------------------------------------------------------


class EventEnvelope(BaseModel):
    """One event, as every channel sends it."""

    id: int = Field(
        description="The event's `seq`: 1, 2, 3, … per tournament, without gaps (the SSE `id:`)",
        examples=[7],
    )
    tournament_id: str = Field(examples=["q3Jd0xZ1v7kR"])
    type: str = Field(description="One of the event types", examples=["result.recorded"])
    created_at: datetime = Field(description="When the change was saved (UTC)")
    data: dict[str, Any] = Field(description="The data of this type (see its schema)")


def _envelope_of(
    type_: str, data: type[BaseModel], base: type[BaseModel] = EventEnvelope
) -> type[BaseModel]:
    name = "".join(part.capitalize() for part in type_.replace(".", "_").split("_")) + "Event"
    fields: Any = {
        "type": (Literal[type_], Field(examples=[type_])),
        "data": (data, ...),
    }
    model: type[BaseModel] = create_model(
        name, __base__=base, __doc__=SUMMARIES[type_] + ".", **fields
    )
    return model


ENVELOPES: dict[str, type[BaseModel]] = {t: _envelope_of(t, d) for t, d in DATA.items()}
CLUB_ENVELOPES: dict[str, type[BaseModel]] = {
    t: _envelope_of(t, d, ClubEventRead) for t, d in CLUB_DATA.items()
}
"""A club's events: the envelope is ``ClubEventRead``, as ``GET /v1/clubs/{id}/events`` lists
them."""


def validate(envelope: dict[str, Any]) -> BaseModel:
    """The envelope checked against its type's schema (used by the tests)."""
    return {**ENVELOPES, **CLUB_ENVELOPES}[envelope["type"]].model_validate(envelope)


TOURNAMENT_STREAM = "`GET /v1/tournaments/{id}/events`"
CLUB_STREAM = "`GET /v1/clubs/{id}/events/stream`"


def document_events(app: FastAPI) -> None:
    """One entry per event type in the ``webhooks`` section: the body a receiver gets."""
    for type_, model in ENVELOPES.items():
        _add_webhook(app, type_, model, TOURNAMENT_STREAM)
    for type_, model in CLUB_ENVELOPES.items():
        _add_webhook(app, type_, model, CLUB_STREAM)


def _add_webhook(app: FastAPI, type_: str, model: type[BaseModel], stream: str) -> None:
    def receive(body: BaseModel) -> None:
        """The body a receiver gets (the stream's, below)."""

    receive.__doc__ = f"The same body as the `data:` line of {stream}."

    # The annotations are strings here (``from __future__ import annotations``): give FastAPI
    # the class itself.
    receive.__annotations__ = {"body": model, "return": None}

    app.webhooks.post(
        type_,
        operation_id=f"event-{type_.replace('.', '-').replace('_', '-')}",
        summary=SUMMARIES[type_],
        tags=["club-events" if stream == CLUB_STREAM else "events"],
        status_code=200,
        response_description="Any 2xx acknowledges the event",
    )(receive)
