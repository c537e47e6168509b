"""Request bodies of the club endpoints (``/v1/clubs``): the club, its register, its
tournaments (docs/clubs.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field

from app.api.schemas import (
    FideId,
    Name,
    PlayerCreate,
    Rating,
    Schema,
    Team,
    TournamentCreate,
    TournamentName,
)
from app.api.token_schemas import Label
from app.domain.ratings.club import RatingSystem
from app.domain.register import MAX_ALIASES
from app.domain.types import FideTitle
from app.inputs import JSON_NUMBER, MAX_INTEGER

ClubPlayerId = Annotated[int, Field(ge=1, le=MAX_INTEGER), JSON_NUMBER]
Aliases = Annotated[list[Name], Field(max_length=MAX_ALIASES)]


EloK = Annotated[int, Field(ge=1, le=100, description="Elo's K factor (1–100)"), JSON_NUMBER]


class ClubCreate(Schema):
    """A new club; its first key comes in the answer (shown once)."""

    name: TournamentName = Field(examples=["Circolo Scacchi Rovereto"])
    key_label: Label | None = Field(
        default=None, description="The first key's label, for the club's list (never secret)"
    )
    rating_system: RatingSystem = Field(
        default=RatingSystem.ELO, description="How the club rates its players: Elo or Glicko-2"
    )
    elo_k: EloK = 20

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"name": "Circolo Scacchi Rovereto"}]}
    )


class ClubUpdate(Schema):
    """Rename the club, change its rating settings (the fields given). New rating settings
    rate the club again from its first rated tournament."""

    name: TournamentName | None = None
    rating_system: RatingSystem | None = None
    elo_k: EloK | None = None

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"rating_system": "glicko2"}]}
    )


class ClubPlayerCreate(Schema):
    """An entry of the register: a person, and the names they may be entered under."""

    name: Name = Field(examples=["Müller"])
    aliases: Aliases = Field(default_factory=list, examples=[["Mueller"]])
    rating: Rating | None = Field(None, examples=[1850])
    title: FideTitle | None = None
    fide_id: FideId | None = None
    team: Team | None = None


class ClubPlayerUpdate(Schema):
    """The fields given change (`null` clears rating, title, FIDE id or team); `aliases`
    replaces the whole list."""

    name: Name | None = None
    aliases: Aliases | None = None
    rating: Rating | None = None
    title: FideTitle | None = None
    fide_id: FideId | None = None
    team: Team | None = None

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"aliases": ["Mueller", "J. Müller"]}]}
    )


class ClubPlayerMerge(Schema):
    """The entry to merge into this one: it goes, its tournaments and names stay here."""

    merged_id: ClubPlayerId = Field(examples=[17])


class RegisterPlayer(Schema):
    """A player taken from the club's register, with the entry's name and values."""

    club_player_id: ClubPlayerId = Field(examples=[17])


class ClubTournamentCreate(TournamentCreate):
    """A tournament of the club: its players from the register (`{"club_player_id": …}`) or
    new names (a name that is exactly one entry's name or alias is that entry, accents and case
    aside; any other joins the register). The settings are those of `POST /v1/tournaments`."""

    players: list[RegisterPlayer | PlayerCreate] = Field(  # type: ignore[assignment]
        min_length=2, description="2–4096 players: register entries or new names"
    )
    seed_by: Literal["given", "club_rating"] = Field(
        default="given",
        description="`club_rating`: each register entry with a club rating plays with it, "
        "rounded, as its rating (so the seeding and start numbers follow the club's ratings); "
        "`given`: the ratings given or in the register",
    )
    season_id: Annotated[int, Field(ge=1, le=MAX_INTEGER), JSON_NUMBER] | None = Field(
        default=None, description="A season of the club the tournament counts in (docs/clubs.md)"
    )

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "name": "Friday evening",
                    "players": [
                        {"club_player_id": 1},
                        {"club_player_id": 2},
                        {"name": "Verdi"},
                        {"name": "Neri", "rating": 1500},
                    ],
                }
            ]
        },
    )
