"""Request and response bodies of players' result reports (``…/matches/{id}/claims``,
``…/claims``)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from app.api.schemas import Goals
from app.domain.reports import BoardState, ReportStep
from app.domain.types import Side
from app.read_models import MatchRead

BoardCode = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, min_length=1, max_length=16, pattern=r"^[0-9A-Za-z -]+$"
    ),
]


class ClaimWrite(BaseModel):
    """A player's claim of a Swiss board's result, with the board's code (its table card)."""

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"code": "K7QM-4TXA", "side": "home", "home": 2, "away": 1}]
        },
    )

    code: BoardCode = Field(description="The board's code; spaces, dashes and case do not matter")
    side: Side = Field(description="Whose player sends the claim: `home` or `away`")
    home: Goals
    away: Goals


class ClaimAnswer(BaseModel):
    """What the claim did and where the board stands."""

    step: ReportStep | None = Field(
        description="`claimed` (waits for the other side), `confirmed` (the result is "
        "recorded), `disputed` (the two claims differ: the organizer decides); null: the "
        "side repeated its own claim and nothing changed"
    )
    state: BoardState = Field(
        description="`pending`, `disputed`, or `open` once the result is recorded"
    )
    match: MatchRead


class SideClaimRead(BaseModel):
    home: int = Field(description="Goals claimed for the home side")
    away: int = Field(description="Goals claimed for the away side")
    claimed_at: datetime


class BoardClaimsRead(BaseModel):
    """A board with a claim: pending (one side's) or disputed (two that differ)."""

    match: MatchRead
    state: BoardState
    home_claim: SideClaimRead | None = Field(description="The home player's claim")
    away_claim: SideClaimRead | None = Field(description="The away player's claim")
