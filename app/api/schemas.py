"""Request bodies of the HTTP API, apart from the tables, and the problem and health shapes.

What a read returns lives in ``app.read_models`` (shared with the services and the events).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from app.domain.clock import MAX_DURATION_SECONDS, ClockAction
from app.domain.forbidden import MAX_TEAM_LENGTH, PairKind, TeamRule
from app.domain.formats import FinalPhaseKind, FormatPreset
from app.domain.pairing_checks import CheckRule
from app.domain.registration import TEAM_SIZE
from app.domain.types import (
    ByeKind,
    DecidedBy,
    Entry,
    FideTitle,
    Forfeit,
    InitialColour,
    PairingSystem,
    Side,
    Tiebreak,
)
from app.inputs import (
    JSON_BOOLEAN,
    JSON_NUMBER,
    MAX_INTEGER,
    NO_CONTROL_CHARACTERS,
    TOURNAMENT_ID,
)
from app.read_models import GroupsSchema, PointsTableSchema

Name = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, min_length=1, max_length=80, pattern=NO_CONTROL_CHARACTERS
    ),
]
Team = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, max_length=MAX_TEAM_LENGTH, pattern=NO_CONTROL_CHARACTERS
    ),
]
"""A club, school or family; blank is no team."""
TournamentName = Annotated[
    str,
    StringConstraints(
        strip_whitespace=True, min_length=1, max_length=120, pattern=NO_CONTROL_CHARACTERS
    ),
]
# Bounds sit inside, before JSON_NUMBER, so that OpenAPI shows them as minimum/maximum.
Members = Annotated[
    list[Name],
    Field(
        min_length=TEAM_SIZE,
        max_length=TEAM_SIZE,
        description='`entry: "team"` (doubles): the two players of the team entry, who play '
        "every match together; `name` is the team's name",
        examples=[["Rossi", "Bianchi"]],
    ),
]
Goals = Annotated[int, Field(ge=0, le=999), JSON_NUMBER]
Rating = Annotated[int, Field(ge=0, le=100_000), JSON_NUMBER]
Rounds = Annotated[int, Field(ge=1), JSON_NUMBER]
Seed = Annotated[int, Field(ge=0, le=2**53), JSON_NUMBER]
FideId = Annotated[int, Field(ge=1, le=99_999_999_999), JSON_NUMBER]
"""A FIDE id: the 11 digits a TRF file gives it at most."""
AllowedByes = Annotated[
    list[ByeKind],
    Field(
        max_length=2,
        description="The byes a player may ask for (`PUT …/players/{id}/byes/{round}`); "
        "default: both for dutch, none for the others",
    ),
]
PlayerResults = Annotated[
    bool,
    JSON_BOOLEAN,
    Field(
        description="Players report results with their board's code (table cards of `…/print`; "
        "`POST …/matches/{id}/claims`); may change at any time. Default false"
    ),
]
TopCutSize = Annotated[
    int,
    Field(
        ge=2,
        le=64,
        description="final_phase top_cut: how many qualify (2–64); double_elimination: 4–16",
    ),
    JSON_NUMBER,
]
ThirdPlace = Annotated[
    bool,
    JSON_BOOLEAN,
    Field(description="final_phase top_cut: the semifinal losers play for 3rd place"),
]
GrandFinalReset = Annotated[
    bool,
    JSON_BOOLEAN,
    Field(
        description="final_phase double_elimination: the grand final is played again if the "
        "losers' bracket winner wins it (the default); false: the grand final decides"
    ),
]
CheckedInOnly = Annotated[
    bool,
    JSON_BOOLEAN,
    Field(
        description="Round 1 pairs only the players checked in (`PATCH …/players/{id}` with "
        '`{"checked_in": true}`); the others miss round 1 only. Default false'
    ),
]

ClockSeconds = Annotated[int, Field(ge=1, le=MAX_DURATION_SECONDS), JSON_NUMBER]
"""A round's time in seconds (the round clock: ``app.domain.clock``)."""
RoundDuration = Annotated[
    ClockSeconds,
    Field(
        description="A round's time in seconds: what the round clock counts down when started "
        "without a `duration` of its own (`POST …/rounds/{n}/clock`); may change at any time. "
        "Default: none set",
        examples=[1800],
    ),
]


class Schema(BaseModel):
    model_config = ConfigDict(extra="forbid")


# -- problem -----------------------------------------------------------------------------------


class Problem(BaseModel):
    """An RFC 9457 problem (``application/problem+json``); ``code`` is stable."""

    type: str = Field(examples=["https://svizzera.example/problems/round_incomplete"])
    title: str = Field(examples=["Conflict"])
    status: int = Field(examples=[409])
    detail: str = Field(examples=["round 2 still has matches without result"])
    code: str = Field(description="Stable machine-readable code", examples=["round_incomplete"])


# -- tournaments and players -------------------------------------------------------------------


class PlayerCreate(Schema):
    """A player to enter."""

    name: Name = Field(examples=["Rossi"])
    rating: Rating | None = Field(None, examples=[1850])
    title: FideTitle | None = Field(None, description="FIDE title (dutch pairing numbers)")
    fide_id: FideId | None = Field(None, examples=[1503014])
    team: Team | None = Field(
        None, description="Club, school or family (`avoid_same_team`)", examples=["Rovereto"]
    )
    members: Members | None = None


class TournamentCreate(Schema):
    """A new tournament: players and settings (everything but name and players is optional)."""

    name: TournamentName = Field(examples=["Friday evening"])
    players: list[PlayerCreate] = Field(min_length=2, description="2–4096 players")
    pairing: PairingSystem = Field(
        PairingSystem.NEAREST,
        description="`dyp` only with `format: dyp`, which takes it when `pairing` is left out",
    )
    tiebreak: Tiebreak | None = Field(
        None,
        description="Default: buchholz (nearest, dutch), lim (lim), points_per_match (dyp, "
        "its only one)",
    )
    points: PointsTableSchema | None = Field(
        None,
        description="Default: 3/1/0, bye 3; dutch: chess, 1/0.5/0, bye 1. Keys left out "
        "keep the default's value",
    )
    format: FormatPreset = Field(
        FormatPreset.STANDARD,
        description="`standard`, `short` (at most 4 rounds and a final) or `dyp` (draw your "
        "partner: teams of two drawn every round from individual players, no final phase; "
        "docs/rules.md, DYP)",
    )
    swiss_rounds: Rounds | None = Field(None, description="Overrides the format table")
    final_phase: FinalPhaseKind | None = Field(
        None, description="Overrides the format table (dutch, dyp: none unless given)"
    )
    top_cut_size: TopCutSize | None = None
    third_place: ThirdPlace = False
    grand_final_reset: GrandFinalReset | None = None
    groups: GroupsSchema | None = None
    seed: Seed | None = Field(None, description="Drives every draw; random if absent")
    initial_colour: InitialColour | None = Field(
        None,
        description="dutch only: the top seed's colour in round 1 (white, black), or drawn "
        "from the seed (draw, the default)",
    )
    allowed_byes: AllowedByes | None = None
    avoid_same_team: TeamRule | None = Field(
        None,
        description="Two players of one `team` are a forbidden pair: `off` (the default), "
        "`soft` or `hard`",
    )
    pair_checked_in_only: CheckedInOnly = False
    round_duration: RoundDuration | None = None
    player_results: PlayerResults = False
    entry: Entry | None = Field(
        None,
        description="`player` (the default) or `team`: every entry a team of two named players "
        "(doubles: each listed with `members`), paired and ranked as one. Chosen at creation",
    )

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "name": "Friday evening",
                    "players": [
                        {"name": "Rossi"},
                        {"name": "Bianchi"},
                        {"name": "Verdi"},
                        {"name": "Neri"},
                    ],
                    "points": {"win": 3, "draw": 1, "loss": 0, "bye": 3},
                }
            ]
        },
    )


class TournamentUpdate(Schema):
    """Rename (any time) and change settings (in registration only, but `avoid_same_team` and
    `round_duration`, which may change until the tournament is finished, and `player_results`,
    any time). Absent fields stay; `round_duration: null` unsets it."""

    name: TournamentName | None = None
    pairing: PairingSystem | None = None
    tiebreak: Tiebreak | None = None
    points: PointsTableSchema | None = None
    format: FormatPreset | None = None
    swiss_rounds: Rounds | None = None
    final_phase: FinalPhaseKind | None = None
    top_cut_size: TopCutSize | None = None
    third_place: ThirdPlace | None = None
    grand_final_reset: GrandFinalReset | None = None
    groups: GroupsSchema | None = None
    seed: Seed | None = None
    initial_colour: InitialColour | None = None
    allowed_byes: AllowedByes | None = None
    avoid_same_team: TeamRule | None = None
    pair_checked_in_only: CheckedInOnly | None = None
    round_duration: RoundDuration | None = None
    player_results: PlayerResults | None = None

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"name": "Friday final"}, {"swiss_rounds": 3}]},
    )


class PlayerUpdate(Schema):
    """Rename with `name`; withdraw with `withdrawn: true` (cannot be undone); `team` puts the
    player in a team (`""` or `null`: in none); check in for round 1 with `checked_in` (in
    registration)."""

    name: Name | None = None
    withdrawn: Annotated[Literal[True], JSON_BOOLEAN] | None = None
    team: Team | None = None
    checked_in: Annotated[bool, JSON_BOOLEAN] | None = Field(
        None, description="On (true) or off the check-in list of round 1; in registration only"
    )
    members: Members | None = Field(
        None,
        description="A team entry's two players named anew (a substitute), at any time; the "
        "team keeps its results",
    )

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [{"name": "Rossi M."}, {"withdrawn": True}, {"checked_in": True}]
        },
    )


class ByeRequest(Schema):
    """The bye a player asks for in a round they will not play."""

    kind: ByeKind = Field(description="`half_point` scores a draw's points, `zero_point` nothing")

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"kind": "half_point"}]}
    )


class ForbiddenPairCreate(Schema):
    """Two players not to be paired: `hard` never, `soft` unless the round cannot be paired
    otherwise."""

    players: list[Annotated[int, Field(ge=1, le=MAX_INTEGER), JSON_NUMBER]] = Field(
        min_length=2, max_length=2, description="The two player ids"
    )
    kind: PairKind = PairKind.HARD

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"players": [3, 7], "kind": "hard"}]}
    )


class CheckRequest(Schema):
    """A stored tournament to check (a TRF is sent as the body itself, `text/plain`)."""

    tournament: str = Field(
        pattern=TOURNAMENT_ID, description="The tournament's id", examples=["q3Jd0xZ1v7kR"]
    )

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"tournament": "q3Jd0xZ1v7kR"}]}
    )


# -- results -----------------------------------------------------------------------------------


class ResultWrite(Schema):
    """`{"home": 2, "away": 1}`; a level final-phase score names `winner`; a forfeit names
    the absent side, or `both` (a double forfeit, Swiss rounds only: both lose)."""

    home: Goals | None = None
    away: Goals | None = None
    winner: Side | None = None
    decided_by: DecidedBy | None = None
    forfeit: Forfeit | None = None

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {"home": 2, "away": 1},
                {"home": 1, "away": 1, "winner": "home", "decided_by": "penalties"},
                {"forfeit": "away"},
                {"forfeit": "both"},
            ]
        },
    )

    @model_validator(mode="after")
    def _goals_or_forfeit(self) -> ResultWrite:
        if self.forfeit is None and (self.home is None or self.away is None):
            raise ValueError("give both `home` and `away` goals, or a `forfeit`")
        if self.forfeit is not None and (self.home is not None or self.away is not None):
            raise ValueError(
                'a forfeit carries no goals: send only `{"forfeit": "home"}`, `"away"` '
                '(the side that did not show) or `"both"`'
            )
        return self


class ResultEntry(ResultWrite):
    """One result of a batch: the match's id and its result."""

    match_id: Annotated[int, Field(ge=1, le=MAX_INTEGER), JSON_NUMBER] = Field(
        description="The match's id in this tournament"
    )

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"match_id": 7, "home": 2, "away": 1}]}
    )


MAX_BATCH = 2048
"""A round of 4096 players has 2048 matches: a whole round fits in one batch."""


class ResultsBatch(Schema):
    """Several results recorded in one request, in order, all or nothing."""

    results: list[ResultEntry] = Field(min_length=1, max_length=MAX_BATCH)

    model_config = ConfigDict(extra="forbid")

    @model_validator(mode="after")
    def _each_match_once(self) -> ResultsBatch:
        ids = [entry.match_id for entry in self.results]
        if len(set(ids)) != len(ids):
            raise ValueError("each match may appear once in a batch: send one result per match")
        return self


# -- pairing by hand --------------------------------------------------------------------------

PlayerRef = Annotated[int, Field(ge=1, le=MAX_INTEGER), JSON_NUMBER]
MAX_PLAYERS_PAIRED = 4096
"""The most players a tournament takes: the bound of a pairing's boards and byes."""


class BoardWrite(Schema):
    """A board set by hand: `home` is home (White in `dutch`) as given."""

    home: PlayerRef = Field(description="Player id")
    away: PlayerRef = Field(description="Player id")


class HandPairingWrite(Schema):
    """A round's boards and byes set by hand; `accept` names the rules (check codes) the
    arbiter accepts to break (`rematch`, `forbidden_pair`, `repeated_bye`,
    `absolute_criteria`, `colour`, as the checks name them; warnings need no accepting)."""

    boards: list[BoardWrite] = Field(max_length=MAX_PLAYERS_PAIRED // 2)
    byes: list[PlayerRef] = Field(default_factory=list, max_length=MAX_PLAYERS_PAIRED)
    accept: list[CheckRule] = Field(default_factory=list, max_length=len(CheckRule))

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "examples": [
                {
                    "boards": [{"home": 1, "away": 4}, {"home": 3, "away": 2}],
                    "byes": [5],
                    "accept": ["rematch"],
                }
            ]
        },
    )


# -- the round clock ---------------------------------------------------------------------------


class ClockWrite(Schema):
    """An action on a round's clock; `duration` (seconds) only with `start`, where it replaces
    the tournament's `round_duration` for this clock."""

    action: ClockAction = Field(description="`start`, `pause`, `resume` or `end`")
    duration: ClockSeconds | None = Field(
        None, description="`start` only: the round's time in seconds (default: `round_duration`)"
    )

    @model_validator(mode="after")
    def _duration_with_start(self) -> ClockWrite:
        if self.duration is not None and self.action is not ClockAction.START:
            raise ValueError("`duration` goes with `start` only: leave it out")
        return self

    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"examples": [{"action": "start"}, {"action": "start", "duration": 900}]},
    )


# -- health ------------------------------------------------------------------------------------


class Health(BaseModel):
    status: Literal["ok", "degraded"]
    database: Literal["ok", "unreachable"]
