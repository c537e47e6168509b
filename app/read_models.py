"""What a read returns and what an event carries: the response bodies of the HTTP API and
the data of each event type, apart from the tables.

Services build them (``app.services.views``), the routers answer them, the event outbox stores
them; so an event carries exactly the shapes the REST API answers. Points cross the API as JSON
numbers (halves as ``.5``) and are half-point integers inside.
"""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, WithJsonSchema

from app.domain.bracket import BracketSide, SlotSource
from app.domain.clock import ClockState
from app.domain.colours import ColourRule
from app.domain.forbidden import PairKind, TeamRule
from app.domain.formats import FinalPhaseKind, FormatPreset, GroupAssignment
from app.domain.pairing.dutch.types import Colour
from app.domain.pairing_checks import CheckRule, Severity
from app.domain.ratings.club import RatingSystem
from app.domain.types import (
    ByeKind,
    DecidedBy,
    Entry,
    FideTitle,
    Forfeit,
    InitialColour,
    PairingSystem,
    Side,
    Stage,
    Status,
    Tiebreak,
)
from app.inputs import JSON_NUMBER, NO_CONTROL_CHARACTERS

Number = Annotated[float | int, Field(description="Points: whole or half (``.5``)")]
HalfPoints = Annotated[
    float | int,
    Field(ge=0, le=100, multiple_of=0.5),
    JSON_NUMBER,
    # Pydantic cannot place the bounds inside a union's schema: say them as JSON Schema does.
    WithJsonSchema(
        {
            "type": "number",
            "minimum": 0,
            "maximum": 100,
            "multipleOf": 0.5,
            "description": "Points: whole or half (`.5`)",
        }
    ),
]
ListedName = Annotated[str, StringConstraints(max_length=80, pattern=NO_CONTROL_CHARACTERS)]


def points_number(half_points: int) -> float | int:
    """Half-points as a JSON number: 6 → 3, 3 → 1.5."""
    return half_points // 2 if half_points % 2 == 0 else half_points / 2


def fraction_number(half_points: Fraction) -> float | int:
    """Exact half-points (Sonneborn-Berger: quarters) as a JSON number: 43/2 → 10.75."""
    points = half_points / 2
    return points.numerator if points.denominator == 1 else float(points)


# -- tournaments and players -------------------------------------------------------------------


class PointsTableSchema(BaseModel):
    """Points for a win, a draw, a loss and a bye: whole or half points."""

    win: HalfPoints = 3
    draw: HalfPoints = 1
    loss: HalfPoints = 0
    bye: HalfPoints = 3

    model_config = ConfigDict(
        extra="forbid", json_schema_extra={"examples": [{"win": 3, "draw": 1, "loss": 0, "bye": 3}]}
    )


class GroupsSchema(BaseModel):
    """The groups variant: two groups filled by ``assignment``."""

    model_config = ConfigDict(extra="forbid")

    count: Annotated[Literal[2], JSON_NUMBER] = Field(2, description="Always 2")
    assignment: GroupAssignment = Field(examples=["seeded"])
    manual: list[list[ListedName]] | None = Field(
        None, description="With `manual`: the player names of group A and of group B"
    )


class FormatRead(BaseModel):
    """The format in force, as resolved from the players and the settings."""

    preset: FormatPreset
    swiss_rounds: int = Field(
        description="Swiss rounds in force (after an early final phase: the rounds played)",
        examples=[5],
    )
    final_phase: FinalPhaseKind
    groups: int | None = Field(description="2 in the groups variant, else null", examples=[None])


class SettingsRead(BaseModel):
    """The settings as chosen (null where the format table decides)."""

    tiebreak: Tiebreak | None
    swiss_rounds: int | None
    final_phase: FinalPhaseKind | None
    top_cut_size: int | None = Field(None, description="final_phase top_cut: its size")
    third_place: bool = Field(False, description="final_phase top_cut: a third-place match")
    grand_final_reset: bool | None = Field(
        None,
        description="final_phase double_elimination: the grand final is played again if the "
        "losers' bracket winner wins it (null: the default, played)",
    )
    groups: GroupsSchema | None
    initial_colour: InitialColour | None = Field(description="dutch: as chosen (null: draw)")
    allowed_byes: list[ByeKind] | None = Field(description="As chosen (null: the default)")


class WarningRead(BaseModel):
    """Something the settings allow but the organizer should know before playing."""

    code: str = Field(
        description="Stable machine-readable code", examples=["dutch_rounds_not_assured"]
    )
    detail: str = Field(
        examples=[
            "63 Swiss rounds for 64 players: the Dutch rules are sure to pair 32 of them; "
            "a later round may have no pairing that keeps C1–C3 (409 pairing_impossible): "
            "choose at most 32 rounds to be safe"
        ]
    )


class TournamentRead(BaseModel):
    """A tournament: settings, resolved format, status."""

    id: str = Field(description="Random URL-safe id", examples=["q3Jd0xZ1v7kR"])
    name: str
    club_id: str | None = Field(
        None,
        description="The club that runs it (its keys are organizers of it); null for a "
        "tournament of its own",
        examples=[None],
    )
    season_id: int | None = Field(
        None,
        description="The club's season it counts in (`PUT …/season`); null for none",
        examples=[None],
    )
    status: Status
    pairing: PairingSystem
    tiebreak: Tiebreak = Field(description="The tiebreak in use")
    tiebreak_criteria: list[str] = Field(
        examples=[["points", "buchholz", "goal_difference", "goals_for", "start_number"]]
    )
    points: PointsTableSchema
    format: FormatRead
    settings: SettingsRead
    initial_colour: Colour | None = Field(
        description="dutch: the colour of round 1's top seed (chosen or drawn); else null"
    )
    allowed_byes: list[ByeKind] = Field(description="The byes a player may ask for")
    avoid_same_team: TeamRule = Field(
        description="Whether two players of one `team` are a forbidden pair: `off`, `soft` "
        "(avoided unless the round cannot be paired otherwise) or `hard` (never paired)"
    )
    pair_checked_in_only: bool = Field(
        description="Round 1 pairs only the checked-in players (the others miss round 1 only)"
    )
    entry: Entry = Field(
        Entry.PLAYER,
        description="`player`, or `team`: every entry a team of two named players (doubles; "
        "their names in each player's and standings row's `members`)",
    )
    round_duration: int | None = Field(
        description="A round's time in seconds, what the round clock counts down (null: none "
        "set; a clock is then started with its own `duration`)",
        examples=[1800],
    )
    player_results: bool = Field(
        description="Players report results with their board's code (`POST …/matches/{id}/"
        "claims`, the table cards of `…/print`)"
    )
    seed: int
    current_round: int = Field(description="0 before round 1")
    final_phase_started: bool
    player_count: int
    last_event_id: int = Field(
        description="The `seq` of the latest event stored when this was read (0: none yet); "
        "open the event stream with `?after=` this to get only what follows",
        examples=[12],
    )
    version: int = Field(description="Bumped by every write; the ETag")
    created_at: datetime
    warnings: list[WarningRead] = Field(
        description="What the settings allow but may go wrong (`dutch_rounds_not_assured`: "
        "more Swiss rounds than the Dutch rules are sure to pair for the field); empty when "
        "none"
    )
    live_page: str = Field(
        description="The club-room page (HTML, public), kept current by the event stream; "
        "`?lang=en|it|sk|cs`, `?tv=1` for a TV screen",
        examples=["/v1/tournaments/q3Jd0xZ1v7kR/live"],
    )


class RequestedByeRead(BaseModel):
    """A round the player asked to skip, and the bye they get for it."""

    round: int
    kind: ByeKind


class PlayerRead(BaseModel):
    """A player of the tournament."""

    id: int = Field(examples=[1])
    name: str = Field(examples=["Rossi"])
    rating: int | None
    start_number: int
    group: str | None = Field(examples=[None])
    withdrawn: bool
    entered_round: int = Field(description="First round the player could be paired in")
    title: FideTitle | None = Field(examples=[None])
    fide_id: int | None = Field(examples=[None])
    requested_byes: list[RequestedByeRead] = Field(description="The byes asked for, by round")
    team: str | None = Field(
        None, description="Club, school or family (`avoid_same_team`)", examples=[None]
    )
    checked_in: bool = Field(description="On the check-in list of round 1")
    members: list[str] | None = Field(
        None,
        description='A team entry\'s two players (`entry: "team"`); null for a single player',
        examples=[None],
    )


class TournamentCreated(TournamentRead):
    """The new tournament, with its organizer token: shown this once, keep it."""

    organizer_token: str = Field(description="Bearer token for every write to this tournament")
    players: list[PlayerRead]


class TournamentPage(BaseModel):
    """A page of tournaments, newest first."""

    items: list[TournamentRead]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null at the end"
    )


class AuditEntryRead(BaseModel):
    """One accepted write."""

    id: int
    at: datetime
    actor: str = Field(
        description="Who: `organizer`, `club:<club key id>` or `scorekeeper:<token id>`"
    )
    action: str = Field(description="The operation id of the write, e.g. `results-record`")
    detail: dict[str, Any] = Field(description="What the write said (never a secret)")


class AuditPage(BaseModel):
    """A page of the audit trail, oldest first."""

    items: list[AuditEntryRead]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null at the end"
    )


# -- matches and rounds ------------------------------------------------------------------------


class ResultRead(BaseModel):
    """A recorded result; `winner` is the winning side (null for a draw or a double forfeit)."""

    home: int
    away: int
    winner: Side | None
    decided_by: DecidedBy | None
    forfeit: Forfeit | None = Field(
        description="The side that did not show, or `both` (a double forfeit: both lose)"
    )


class MatchRead(BaseModel):
    """A match: a Swiss board or a final-phase match."""

    id: int
    stage: Stage
    round: int | None = Field(description="Null in the final phase")
    group: str | None
    board: int
    home: int = Field(description="Player id")
    away: int = Field(description="Player id")
    white: int | None = Field(description="dutch: the player with White (home); else null")
    black: int | None = Field(description="dutch: the player with Black (away); else null")
    colour_rule: ColourRule = Field(
        description="The rule of colours.md that put `home` at home; `fide` in `dutch` (home is "
        "White); `manual`: seated by hand otherwise than colours.md would"
    )
    result: ResultRead | None
    manual: bool = Field(
        description="Set by hand (`PUT …/rounds/{n}/pairing`, `POST …/rounds` with boards), "
        "not by the pairing system"
    )
    home_partner: int | None = Field(
        None,
        description="DYP (`format: dyp`): the player id of `home`'s partner, the home side's "
        "second player; null otherwise",
        examples=[None],
    )
    away_partner: int | None = Field(
        None,
        description="DYP: the player id of `away`'s partner; null otherwise",
        examples=[None],
    )


class RematchPair(BaseModel):
    higher: int
    lower: int


class PairingCheckRead(BaseModel):
    """A rule a pairing made by hand breaks (`docs/rules.md`, "Pairing by hand")."""

    rule: CheckRule = Field(description="Stable code of the rule", examples=["rematch"])
    severity: Severity = Field(
        description="`error`: refused unless named in `accept`; `warning`: informative"
    )
    players: list[int] = Field(description="The players concerned (ids)", examples=[[3, 7]])
    sentence: str = Field(examples=["Rossi and Bianchi have already met"])


class RoundRead(BaseModel):
    """A Swiss round with every group's matches."""

    number: int
    matches: list[MatchRead]
    byes: list[int] = Field(description="Player ids with the bye")
    rematches: bool = Field(
        description="True for a fallback round, or a round paired by hand with an accepted "
        "rematch; DYP: a round that draws a partnership again"
    )
    rematch_pairs: list[RematchPair] = Field(
        description="The pairs that met before; DYP: the partnerships drawn again"
    )
    paths: list[dict[str, Any]] = Field(
        description="Per group, the pairing rules that acted (`manual`: paired by hand)"
    )
    complete: bool
    manual: bool = Field(description="Paired by hand")
    checks: list[PairingCheckRead] = Field(
        description="Paired by hand: the rules it breaks (errors accepted, warnings); empty "
        "otherwise"
    )


# -- the round clock ---------------------------------------------------------------------------


class ClockRead(BaseModel):
    """A round's clock: its state and the time left at a server time. A client counts down
    from these without asking again: while `running`, the time left at any later server time
    `t` is `remaining_ms - (t - measured_at)`, never below 0 (`ends_at` is when it reaches 0).
    At 0 the clock still runs and says `time_up`: the round does not end by itself."""

    round: int = Field(examples=[3])
    state: ClockState = Field(
        description="`not_started` (never started), `running`, `paused` or `ended`"
    )
    duration_ms: int | None = Field(
        description="The round's time as started; not started: the tournament's "
        "`round_duration` (null: none set)",
        examples=[1800000],
    )
    remaining_ms: int | None = Field(
        description="Milliseconds left at `measured_at` (never negative); null as `duration_ms`",
        examples=[1234500],
    )
    measured_at: datetime = Field(
        description="The server time `remaining_ms` was measured at: a read's own time, an "
        "event's action time"
    )
    ends_at: datetime | None = Field(
        description="Running: the server time the clock reaches 0; else null"
    )
    time_up: bool = Field(description="Started, and no time left at `measured_at`")


# -- explanations ------------------------------------------------------------------------------


class ExplainedPlayer(BaseModel):
    id: int
    name: str


class ExplanationStepRead(BaseModel):
    """One rule that acted: its code, the article or spec line, the players it concerns, its
    facts (the values its sentence names; `…_score` facts are points) and the sentence."""

    rule: str = Field(
        description="Stable code: `round.*`, `nearest.*`, `lim.*`, `dutch.*` "
        "(docs/explanations.md)",
        examples=["nearest.lookahead"],
    )
    ref: str = Field(
        description="The article or spec line", examples=["pairing-nearest.md, step 4"]
    )
    players: list[ExplainedPlayer]
    facts: dict[str, float | int | str]
    text: str = Field(description="The step in words of the language asked for")


class PlacementRead(BaseModel):
    """The steps that placed one board (`board`, its two players better-ranked first) or a bye
    (`board` null, one player)."""

    board: int | None
    players: list[ExplainedPlayer]
    steps: list[ExplanationStepRead]


class RoundExplanationRead(BaseModel):
    """Why a round is paired as it is: the steps that shaped the whole round, then one placement
    per board and bye. A round generated before explanations were kept has the single step
    `round.not_explained`; one paired by hand, `round.manual`."""

    round: int
    system: str = Field(description="The pairing system that paired the round")
    language: Literal["en", "it", "sk", "cs"]
    steps: list[ExplanationStepRead] = Field(description="Steps of the whole round")
    placements: list[PlacementRead]


# -- standings and final phase -----------------------------------------------------------------


class StandingRowRead(BaseModel):
    """A player's line in the standings."""

    rank: int
    player_id: int
    name: str
    members: list[str] | None = Field(
        None, description="A team entry's two players (doubles); null for a single player"
    )
    group: str | None
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    goals_for: int
    goals_against: int
    goal_difference: int
    points: Number
    buchholz: Number
    median_buchholz: Number
    sonneborn_berger: float | int = Field(
        description="Sum of each opponent's points times the result against them (a draw: "
        "half); byes and forfeits against a virtual opponent with the player's own points. "
        "Quarters are possible (`10.75`)"
    )
    progressive: Number = Field(description="Sum of the player's points after each round")
    direct_encounter: Number | None = Field(
        description="Points taken from the players level on points, when every two of them "
        "have met; otherwise `null`"
    )
    qualified: bool
    withdrawn: bool
    points_per_match: float | None = Field(
        None,
        description="DYP (tiebreak `points_per_match`): points over the matches played and "
        "byes drawn, to 3 decimals (the order uses the exact value); null otherwise",
        examples=[None],
    )


class StandingsRead(BaseModel):
    """The standings in order, with the tiebreak in use and its criteria."""

    tiebreak: Tiebreak
    criteria: list[str]
    group: str | None
    round: int = Field(description="Rounds generated so far")
    rows: list[StandingRowRead]


class PlaceRead(BaseModel):
    place: int
    player_id: int
    name: str


class FinalPhaseRead(BaseModel):
    """Semifinals and finals with results, and the final ranking once decided."""

    kind: FinalPhaseKind
    started: bool
    qualifiers: list[int] = Field(
        description="Player ids, best first (provisional before the start)"
    )
    matches: list[MatchRead]
    final_ranking: list[PlaceRead] | None


class BracketSlotRead(BaseModel):
    """One side of a bracket match: where its player comes from, and the player once known."""

    source: SlotSource = Field(
        description="`seed` (the qualifier with that seed), or the `winner` or `loser` of a match"
    )
    seed: int | None = Field(description="The seed (1 is the best), for `seed`", examples=[5])
    match: int | None = Field(
        description="The bracket match's `number`, for `winner` and `loser`", examples=[None]
    )
    label: str = Field(
        description="How a page names it: `Seed 5` (`A1` after groups), `Winner of match 3`, "
        "`Loser of match 7`",
        examples=["Seed 5"],
    )
    player_id: int | None = Field(description="The player, once known (after the start)")
    name: str | None
    player_seed: int | None = Field(description="The player's seed, once known")
    goals: int | None = Field(description="The player's goals once the match has a result")
    won: bool = Field(description="The player won this match")


class BracketMatchRead(BaseModel):
    """A match of the bracket: its place (number, round, stage, board), its two slots (the
    upper first, as drawn), and the match itself once both players are known."""

    number: int = Field(description="Its number in the bracket (play order)", examples=[3])
    round: int = Field(description="The bracket round (within its side), 1 first", examples=[1])
    side: BracketSide = Field(
        description="`winners` (every match of a single elimination), `losers` or "
        "`grand_final` (a double elimination)"
    )
    stage: Stage
    board: int
    if_needed: bool = Field(
        description="Played only if the player of the grand final's lower slot (the losers' "
        "bracket winner) wins the grand final: a double elimination's reset"
    )
    skipped: bool = Field(
        description="An `if_needed` match that will not be played: the grand final's upper "
        "slot won it"
    )
    slots: list[BracketSlotRead] = Field(min_length=2, max_length=2)
    match: MatchRead | None = Field(
        description="The match (its `id` takes the result), null until both players are known"
    )


class BracketRoundRead(BaseModel):
    """A column of the drawing: a round of one side of the bracket."""

    side: BracketSide = Field(description="`winners`, `losers` or `grand_final`")
    number: int = Field(description="1 first within its side; the third-place match is in the last")
    stage: Stage = Field(description="The stage of its main matches (`final` for the last)")
    matches: list[BracketMatchRead]


class BracketSeedRead(BaseModel):
    seed: int
    label: str = Field(description="`Seed 5`, or the group position after groups (`A1`)")
    player_id: int | None = Field(description="Null before the start")
    name: str | None


class BracketRead(BaseModel):
    """The final phase as a bracket a front end can draw without knowing the rules: rounds,
    matches, slots. The semifinals are the bracket of 4 with a third-place match, the final
    alone that of 2; without a final phase, no rounds. A double elimination lists the winners'
    rounds, then the losers', then the grand final and its reset (`side`)."""

    kind: FinalPhaseKind
    size: int = Field(description="Qualifiers (seeds)", examples=[8])
    third_place: bool
    grand_final_reset: bool = Field(
        description="double_elimination: the grand final's reset is played if needed"
    )
    started: bool
    seeds: list[BracketSeedRead] = Field(
        description="Best first; the players are known once the final phase started"
    )
    rounds: list[BracketRoundRead]


# -- the data of each event type ---------------------------------------------------------------
# An event carries what changed, never a read that grows with the field: the standings and the
# whole final ranking are reads (cached, conditional on the ETag that `version` names).


class EventData(BaseModel):
    """What every event's data has: the tournament's version after the change."""

    version: int | None = Field(
        None,
        description="The tournament's version after this change: reads whose `ETag` is "
        '`"<version>"` or later include it (`GET …/standings` with `If-None-Match`). '
        "Absent only from events stored before events carried it",
        examples=[12],
    )


class TournamentCreatedData(EventData):
    """The new tournament, as `GET /v1/tournaments/{id}` answers it, but for the names of
    manual groups (`settings.groups.manual` is null here: they grow with the field). The
    players are a read (`GET …/players`); `tournament.player_count` says how many."""

    tournament: TournamentRead


class RoundSummary(BaseModel):
    """A round as its events name it: its number, how it was paired, and what it holds,
    counted. Its boards and byes grow with the field: `GET …/rounds/{number}` reads them."""

    number: int = Field(examples=[3])
    manual: bool = Field(description="Paired by hand")
    rematches: bool = Field(
        description="True for a fallback round, or a round paired by hand with an accepted rematch"
    )
    match_count: int = Field(description="Boards of the round, every group's", examples=[16])
    bye_count: int = Field(description="Players with a bye in the round", examples=[1])
    check_count: int = Field(
        description="Paired by hand: how many rules it breaks (`checks` of the round); else 0",
        examples=[0],
    )


class RoundGeneratedData(EventData):
    """The new round, counted (its boards: `GET …/rounds/{number}`)."""

    round: RoundSummary


class RoundPairedManuallyData(EventData):
    """The latest round after its boards and byes were replaced by hand, counted, and how many
    of its matches no longer exist (the round as it is now: `GET …/rounds/{number}`)."""

    round: RoundSummary
    removed_match_count: int = Field(
        description="Matches of the round replaced by new ones (a board kept as it was keeps "
        "its match and id)",
        examples=[2],
    )


class RoundUndoneData(EventData):
    """The round taken back, counted as it was (its matches no longer exist), and the status
    after."""

    round: RoundSummary
    status: Status


class ClockData(EventData):
    """The round's clock after the organizer's action, measured at the action's time."""

    clock: ClockRead


class ResultData(EventData):
    """The match with its result (null once cleared) and the tournament's status after the
    change; in the final phase, the other matches it formed or removed. No standings: read
    `GET …/standings` (with `If-None-Match`) when `version` is newer than the copy you hold."""

    match: MatchRead
    status: Status
    finals_written: list[MatchRead] | None = Field(
        None,
        description="Final phase: other matches formed or re-formed by this result "
        "(a semifinal decides who plays the final)",
    )
    finals_removed: list[int] | None = Field(
        None, description="Final phase: ids of matches removed by this result"
    )


class PlayerData(EventData):
    """The player, as `GET …/players` lists it."""

    player: PlayerRead


class ForbiddenPairRead(BaseModel):
    """Two players the organizer listed as not to be paired (organizer-only read)."""

    id: int = Field(examples=[1])
    players: list[int] = Field(
        min_length=2, max_length=2, description="The two player ids, lower first", examples=[[3, 7]]
    )
    kind: PairKind = Field(
        description="`hard`: never paired; `soft`: avoided unless the round cannot be paired "
        "otherwise"
    )


class ForbiddenPairData(EventData):
    """A forbidden pair was listed or taken off the list. The stream is public and the pairs
    are not (a family matter, often): only the pair's id and kind, never the players."""

    forbidden_pair_id: int = Field(examples=[1])
    kind: PairKind


class ReportData(EventData):
    """A player's claim of a board's result: which board and which side claimed. Never the
    board's code, nor the score claimed (the organizer reads the claims: `GET …/claims`)."""

    match_id: int = Field(examples=[7])
    round: int = Field(examples=[3])
    board: int = Field(examples=[2])
    side: Side = Field(description="The side whose player sent the claim")


class ByeData(EventData):
    """The player after the change (as `GET …/players` lists it), the round and the bye's kind
    (the kind taken back, for `bye.cancelled`)."""

    player: PlayerRead
    round: int = Field(description="The Swiss round the bye is for", examples=[3])
    kind: ByeKind


class FinalPhaseStartedData(EventData):
    """The final phase as `GET …/final-phase`: qualifiers and opening matches."""

    final_phase: FinalPhaseRead


class TournamentFinishedData(EventData):
    """The first three places of the final ranking; the whole ranking is
    `GET …/final-phase` (`final_ranking`)."""

    podium: list[PlaceRead] = Field(description="Places 1 to 3 (fewer with fewer players)")


# -- the checker -------------------------------------------------------------------------------


class CheckedBoardRead(BaseModel):
    """A board of a checked round: who was at home (White in `dutch`) and who away."""

    home: int = Field(description="Player id")
    away: int = Field(description="Player id")


class CheckedPairingRead(BaseModel):
    """A round's pairing: its boards in board order and its pairing-allocated byes."""

    boards: list[CheckedBoardRead]
    byes: list[int] = Field(description="Player ids with the pairing-allocated bye")


class CheckedPlayerRead(BaseModel):
    """A player of a differing round."""

    id: int
    start_number: int = Field(description="The pairing number (a TRF's starting rank)")
    name: str


class RoundDifferenceRead(BaseModel):
    """A round whose pairing as recorded is not the one the system gives."""

    round: int
    recorded: CheckedPairingRead = Field(description="The pairing as recorded")
    system: CheckedPairingRead | None = Field(
        description="The pairing the system gives from the rounds before; null when it finds none"
    )
    other_opponents: list[int] = Field(
        description="Player ids whose opponent (or bye) is not the same in the two pairings"
    )
    swapped_colours: list[CheckedBoardRead] = Field(
        description="Boards as recorded that the system pairs too, with home and away swapped"
    )
    refusal: str | None = Field(description="Why the system finds no pairing (else null)")


class CheckRead(BaseModel):
    """Every Swiss round paired again from the rounds before it and compared; nothing stored."""

    name: str = Field(description="The tournament's name (a TRF's 012)")
    tournament: str | None = Field(description="The tournament's id; null for a TRF body")
    pairing: PairingSystem = Field(description="The system the rounds were paired again with")
    rounds: int = Field(description="Swiss rounds recorded")
    rounds_checked: int
    rounds_differing: int
    unchecked_from: int | None = Field(
        description="The first round not checked because a round before it lacks a result"
    )
    differences: list[RoundDifferenceRead] = Field(description="In round order")
    players: list[CheckedPlayerRead] = Field(
        description="The players of the differing rounds, by start number"
    )


# -- clubs and their player register (docs/clubs.md) ------------------------------------------


class ClubRead(BaseModel):
    """A club: the home of its tournaments and its player register."""

    id: str = Field(description="Random URL-safe id", examples=["c7Hq2LmN0pXe"])
    name: str = Field(examples=["Circolo Scacchi Rovereto"])
    version: int = Field(description="Bumped by every club-level write; the ETag")
    created_at: datetime
    tournaments: str = Field(
        description="Where its tournaments are listed",
        examples=["/v1/clubs/c7Hq2LmN0pXe/tournaments"],
    )
    rating_system: RatingSystem = Field(
        description="How the club rates its players: `elo` or `glicko2` (docs/clubs.md, Ratings)"
    )
    elo_k: int = Field(description="Elo's K factor (used when `rating_system` is `elo`)")


class ClubKeyRead(BaseModel):
    """A club key, without its secret."""

    id: int = Field(description="The key's id (the audit trails' `club:<id>`)")
    label: str | None
    created_at: datetime
    revoked_at: datetime | None = Field(description="When it was revoked; null while it works")


class ClubKeyCreated(ClubKeyRead):
    """A club key with its secret: shown this once, stored only as a hash."""

    key: str = Field(
        description="Send as `Authorization: Bearer …` to the club and its tournaments"
    )


class ClubCreated(ClubRead):
    """The new club and its first key (shown this once: keep it)."""

    key: ClubKeyCreated


class ClubPlayerRead(BaseModel):
    """An entry of the club's player register: one person."""

    id: int = Field(description="The entry's id (`club_player_id` in a tournament's players)")
    name: str = Field(examples=["Müller"])
    aliases: list[str] = Field(
        description="Other names the person was entered under (searched like the name)",
        examples=[["Mueller", "J. Müller"]],
    )
    rating: int | None = Field(examples=[1850])
    title: FideTitle | None = Field(examples=[None])
    fide_id: int | None = Field(examples=[None])
    team: str | None = Field(examples=[None])


class AppearanceRead(BaseModel):
    """A tournament the entry played, as which of its players."""

    tournament_id: str
    tournament_name: str
    player_id: int = Field(description="The player's id in that tournament")
    name: str = Field(description="The name they played under")


class ClubPlayerDetail(ClubPlayerRead):
    """An entry and every tournament it played (a merge brings the merged entry's too)."""

    tournaments: list[AppearanceRead] = Field(description="Oldest first")


class ClubPlayerPage(BaseModel):
    """A page of the register, in name order (accents and case aside)."""

    items: list[ClubPlayerRead]
    next_cursor: str | None = Field(
        description="Pass as `cursor` (with the same `q`) for the next page; null at the end"
    )


# -- club ratings ------------------------------------------------------------------------------


class ClubRatingRead(BaseModel):
    """A register entry's club rating now."""

    club_player_id: int = Field(description="The register entry")
    name: str = Field(examples=["Müller"])
    rating: float = Field(description="The club rating (unrounded)", examples=[1612.4])
    deviation: float | None = Field(
        description="Glicko-2's rating deviation (RD); null under Elo", examples=[None]
    )
    games: int = Field(description="Rated games played, all tournaments")
    last_change: float = Field(description="What the last rated tournament changed")
    last_tournament_id: str = Field(description="The last rated tournament the entry played")


class ClubRatingPage(BaseModel):
    """A page of the club's rating list, best first."""

    rating_system: RatingSystem
    items: list[ClubRatingRead]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null at the end"
    )


class RatingStepRead(BaseModel):
    """A register entry's rating after one rated tournament, and how it played there."""

    tournament_id: str
    tournament_name: str
    rated_at: datetime = Field(description="When the tournament was rated (it finished)")
    rating_before: float
    rating: float = Field(description="The rating after the tournament")
    deviation: float | None = Field(description="Glicko-2's RD after it; null under Elo")
    games: int = Field(description="Rated games there (forfeits and byes are not)")
    score: float = Field(description="Points scored in them: 1 a win, ½ a draw")
    performance: float = Field(
        description="Linear performance: the opponents' average rating before the tournament "
        "+ 400 × (wins − losses) / games"
    )


class RatingHistoryPage(BaseModel):
    """A page of a register entry's rating history, oldest first."""

    club_player_id: int
    items: list[RatingStepRead]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null at the end"
    )


class ClubEventRead(BaseModel):
    """A club-level change: `rating.updated` (a tournament was rated, or the club's ratings
    were computed again), `season.updated`."""

    id: int = Field(description="The club's event sequence number (1, 2, 3, …)")
    club_id: str
    type: str = Field(examples=["rating.updated"])
    created_at: datetime
    data: dict[str, Any] = Field(
        examples=[{"reason": "tournament", "tournament_id": "x7Hq2LmN0pXe", "players": 12}]
    )


class RatingUpdatedData(BaseModel):
    """The club's ratings moved: `reason` `tournament` (a tournament of the club finished and
    was rated: `tournament_id`) or `recomputed` (the club was rated again: `tournaments`). The
    new ratings are a read (`GET …/ratings`)."""

    reason: str = Field(
        description="`tournament`: one tournament rated; `recomputed`: the club rated again "
        "(a merge, new rating settings, a rated tournament corrected or deleted)",
        examples=["tournament"],
    )
    players: int = Field(description="How many ratings moved", examples=[12])
    tournament_id: str | None = Field(
        None, description="The tournament rated (`reason: tournament`)", examples=["x7Hq2LmN0pXe"]
    )
    tournaments: int | None = Field(
        None, description="How many tournaments were rated again (`reason: recomputed`)"
    )


class SeasonUpdatedData(BaseModel):
    """A season's table may have changed; the table is a read (`GET …/seasons/{id}/standings`)."""

    season_id: int = Field(examples=[3])
    tournament_id: str | None = Field(
        description="The tournament that changed it; null for a register merge or new settings",
        examples=["x7Hq2LmN0pXe"],
    )
    reason: str | None = Field(
        None,
        description="`tournament`, `merge` (a register merge) or `settings` (a new name or "
        "rule); absent from events stored before events said why",
        examples=["tournament"],
    )
    club_player_id: int | None = Field(
        None, description="A register merge: the entry kept (absent otherwise)"
    )
    changed: list[str] | None = Field(
        None, description="New settings: the fields that changed (`name`, `scoring`, …)"
    )


class SeasonDeletedData(BaseModel):
    """The season was deleted; its tournaments left it and stay, in no season."""

    season_id: int = Field(examples=[3])
    tournaments: int = Field(description="How many tournaments left it", examples=[12])


class ClubEventPage(BaseModel):
    """The club's events after `after`, oldest first."""

    items: list[ClubEventRead]
    next_after: int | None = Field(
        description="Pass as `after` for the next page; null when there are no more now"
    )


# -- seasons -----------------------------------------------------------------------------------


def exact_number(value: Fraction) -> float | int:
    """An exact score as a JSON number: whole as an integer, else the nearest float."""
    return value.numerator if value.denominator == 1 else float(value)


class SeasonRead(BaseModel):
    """A club's season: its evenings summed up by one scoring rule."""

    id: int
    club_id: str
    name: str = Field(examples=["Winter 2026"])
    scoring: Literal["places", "points", "average"] = Field(
        description="`places`: points by final place from `place_points`; `points`: the sum of "
        "the evenings' Swiss points; `average`: points per round played"
    )
    place_points: list[int] = Field(
        description="Points of places 1, 2, … (`places` only; places beyond score 0)",
        examples=[[25, 18, 15, 12, 10, 8, 6, 4, 2, 1]],
    )
    best: int | None = Field(description="Only each player's best N evenings count; null: all")
    version: int
    created_at: datetime
    standings: str = Field(examples=["/v1/clubs/c7Hq2LmN0pXe/seasons/1/standings"])


class SeasonPage(BaseModel):
    """A page of seasons, oldest first."""

    items: list[SeasonRead]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null at the end"
    )


class SeasonEveningRead(BaseModel):
    """A tournament of the season; only finished ones count."""

    tournament_id: str
    name: str
    status: Status
    created_at: datetime
    counted: bool = Field(description="Finished: its final ranking is in the table")


class SeasonStandingRow(BaseModel):
    """A player's line of the season table: a register entry, over the counted evenings."""

    rank: int = Field(description="Equal for players equal on every tiebreak")
    club_player_id: int = Field(description="The register entry (after a merge: the kept one)")
    name: str = Field(description="The register entry's name")
    score: float | int = Field(
        description="What the rule ranks by: place points, points, or points per round"
    )
    evenings: int = Field(description="Evenings played (the first tiebreak: more first)")
    counted: int = Field(description="Evenings the score counts (`best` of them)")
    best_place: int = Field(description="Best final place (the second tiebreak: lower first)")
    points: float | int = Field(description="Swiss points over every evening played")
    matches: int = Field(description="Rounds played or given a bye, every evening")
    head_to_head: float | int | None = Field(
        description="Points scored in games against the players tied with this one on score, "
        "evenings and best place (the last tiebreak); null when not needed"
    )


class SeasonStandingsRead(BaseModel):
    """The season table: finished evenings counted, the others listed."""

    season: SeasonRead
    evenings: list[SeasonEveningRead] = Field(description="In the order they were made")
    tiebreaks: list[str] = Field(
        description="After the score, in order",
        examples=[["evenings", "best_place", "head_to_head"]],
    )
    rows: list[SeasonStandingRow]
