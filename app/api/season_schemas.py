"""Request bodies of the season endpoints (docs/clubs.md, "Seasons")."""

from __future__ import annotations

from typing import Annotated, Self

from pydantic import ConfigDict, Field, model_validator

from app.api.schemas import Schema, TournamentName
from app.domain.seasons import SeasonScoring
from app.inputs import JSON_NUMBER, MAX_INTEGER

SeasonId = Annotated[int, Field(ge=1, le=MAX_INTEGER), JSON_NUMBER]
MAX_PLACES = 4096
"""A place-points table as long as the largest tournament."""


class SeasonCreate(Schema):
    """A new season of the club and how it scores an evening."""

    name: TournamentName = Field(examples=["Winter 2026"])
    scoring: SeasonScoring = Field(
        description="`places`: points by final place (`place_points`, default 25-18-15-12-10-"
        "8-6-4-2-1); `points`: the sum of the evenings' Swiss points; `average`: Swiss points "
        "per round played (fair when players come to different numbers of evenings)"
    )
    place_points: list[Annotated[int, Field(ge=0, le=1_000_000), JSON_NUMBER]] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_PLACES,
        description="`places` only: the points of places 1, 2, …; places beyond score 0",
        examples=[[25, 18, 15, 12, 10, 8, 6, 4, 2, 1]],
    )
    best: Annotated[int, Field(ge=1, le=366), JSON_NUMBER] | None = Field(
        default=None, description="Count only each player's best N evenings (null: all)"
    )

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"name": "Winter 2026", "scoring": "places", "best": 8},
                {"name": "Spring", "scoring": "average"},
            ]
        },
    )

    @model_validator(mode="after")
    def _table_for_places_only(self) -> Self:
        if self.place_points is not None and self.scoring is not SeasonScoring.PLACES:
            raise ValueError(
                "`place_points` is the table of the `places` rule: leave it out with "
                f"`{self.scoring.value}`"
            )
        return self


class SeasonUpdate(Schema):
    """What changes in a season: the fields given (`best: null` counts every evening again)."""

    name: TournamentName | None = Field(default=None, examples=["Winter 2026/27"])
    scoring: SeasonScoring | None = Field(
        default=None,
        description="A new rule: the table is ranked by it at once (`places` without "
        "`place_points` keeps the season's table, or takes 25-18-15-12-10-8-6-4-2-1)",
    )
    place_points: list[Annotated[int, Field(ge=0, le=1_000_000), JSON_NUMBER]] | None = Field(
        default=None,
        min_length=1,
        max_length=MAX_PLACES,
        description="A new table for a `places` season (422 `place_points_without_places` "
        "for another rule)",
    )
    best: Annotated[int, Field(ge=1, le=366), JSON_NUMBER] | None = Field(
        default=None, description="Count only each player's best N evenings (null: all)"
    )

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"name": "Winter 2026/27"},
                {"scoring": "places", "place_points": [10, 8, 6, 5, 4, 3, 2, 1], "best": None},
            ]
        },
    )

    @model_validator(mode="after")
    def _table_for_places_only(self) -> Self:
        if (
            self.place_points is not None
            and self.scoring is not None
            and self.scoring is not SeasonScoring.PLACES
        ):
            raise ValueError(
                "`place_points` is the table of the `places` rule: leave it out with "
                f"`{self.scoring.value}`"
            )
        return self


class TournamentSeason(Schema):
    """The season the tournament counts in (`null`: none)."""

    season_id: SeasonId | None = Field(examples=[1])
