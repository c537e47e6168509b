"""The event bodies in OpenAPI: the envelope and the data of each type.

Every channel sends the same envelope (the SSE ``data:`` line, a webhook delivery's body), so
each type is documented once, in the ``webhooks`` section of the OpenAPI 3.1 document. The data
is made of the REST API's own schemas.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from fastapi import FastAPI
from pydantic import BaseModel, Field, create_model

from app.api.schemas import (
    FinalPhaseRead,
    MatchRead,
    PlaceRead,
    PlayerRead,
    RoundRead,
    StandingRowRead,
    TournamentRead,
)
from app.domain.types import Status
from app.services import events

# -- data of each type -------------------------------------------------------------------------


class TournamentCreatedData(BaseModel):
    """The new tournament and its players."""

    tournament: TournamentRead
    players: list[PlayerRead]


class RoundGeneratedData(BaseModel):
    """The new round with every group's matches (as `GET …/rounds/{number}`)."""

    round: RoundRead


class ResultData(BaseModel):
    """The match with its result (null once cleared), the tournament's status, and the standings
    rows that changed (any figure, rank or qualifying flag), best first."""

    match: MatchRead
    status: Status
    standings: list[StandingRowRead] = Field(
        description="Changed rows of `GET …/standings` (all players)"
    )
    group_standings: dict[str, list[StandingRowRead]] | None = Field(
        None, description="Group variant: changed rows of `GET …/standings?group=A` and `B`"
    )
    finals_written: list[MatchRead] | None = Field(
        None,
        description="Final phase: other matches formed or re-formed by this result "
        "(a semifinal decides who plays the final)",
    )
    finals_removed: list[int] | None = Field(
        None, description="Final phase: ids of matches removed by this result"
    )


class PlayerData(BaseModel):
    """The player, as `GET …/players` lists it."""

    player: PlayerRead


class FinalPhaseStartedData(BaseModel):
    """The final phase as `GET …/final-phase`: qualifiers and opening matches."""

    final_phase: FinalPhaseRead


class TournamentFinishedData(BaseModel):
    """The final ranking, place 1 first."""

    final_ranking: list[PlaceRead]


DATA: dict[str, type[BaseModel]] = {
    events.TOURNAMENT_CREATED: TournamentCreatedData,
    events.ROUND_GENERATED: RoundGeneratedData,
    events.RESULT_RECORDED: ResultData,
    events.RESULT_CORRECTED: ResultData,
    events.RESULT_CLEARED: ResultData,
    events.PLAYER_WITHDRAWN: PlayerData,
    events.PLAYER_ADDED: PlayerData,
    events.FINAL_PHASE_STARTED: FinalPhaseStartedData,
    events.TOURNAMENT_FINISHED: TournamentFinishedData,
}

SUMMARIES = {
    events.TOURNAMENT_CREATED: "A tournament was created",
    events.ROUND_GENERATED: "A Swiss round was generated",
    events.RESULT_RECORDED: "A result was recorded",
    events.RESULT_CORRECTED: "A recorded result was changed",
    events.RESULT_CLEARED: "A result was cleared",
    events.PLAYER_WITHDRAWN: "A player withdrew",
    events.PLAYER_ADDED: "A player was added (registration or late entry)",
    events.FINAL_PHASE_STARTED: "The final phase started",
    events.TOURNAMENT_FINISHED: "The tournament finished: the final ranking is decided",
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


def _envelope_of(type_: str, data: type[BaseModel]) -> type[BaseModel]:
    name = "".join(part.capitalize() for part in type_.replace(".", "_").split("_")) + "Event"
    fields: Any = {
        "type": (Literal[type_], Field(examples=[type_])),
        "data": (data, ...),
    }
    model: type[BaseModel] = create_model(
        name, __base__=EventEnvelope, __doc__=SUMMARIES[type_] + ".", **fields
    )
    return model


ENVELOPES: dict[str, type[BaseModel]] = {t: _envelope_of(t, d) for t, d in DATA.items()}


def validate(envelope: dict[str, Any]) -> BaseModel:
    """The envelope checked against its type's schema (used by the tests)."""
    return ENVELOPES[envelope["type"]].model_validate(envelope)


def document_events(app: FastAPI) -> None:
    """One entry per event type in the ``webhooks`` section: the body a receiver gets."""
    for type_, model in ENVELOPES.items():
        _add_webhook(app, type_, model)


def _add_webhook(app: FastAPI, type_: str, model: type[BaseModel]) -> None:
    def receive(body: BaseModel) -> None:
        """The same body as the `data:` line of `GET /v1/tournaments/{id}/events`."""

    # The annotations are strings here (``from __future__ import annotations``): give FastAPI
    # the class itself.
    receive.__annotations__ = {"body": model, "return": None}

    app.webhooks.post(
        type_,
        operation_id=f"event-{type_.replace('.', '-').replace('_', '-')}",
        summary=SUMMARIES[type_],
        tags=["events"],
        status_code=200,
        response_description="Any 2xx acknowledges the event",
    )(receive)
