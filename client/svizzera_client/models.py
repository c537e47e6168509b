"""The bodies of the API: one class per schema of ``/openapi.json``, under the same name.

Requests (``…Create``, ``…Update``, ``…Write``) refuse unknown fields, so a typo fails where it
is made; the server checks the values. Responses (``…Read`` and the rest) ignore fields they do
not know, so a newer server does not break an older client. ``tests/test_client_coverage.py``
checks every schema here against a running server's document, field by field.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

PairingSystem = Literal["nearest", "lim", "dutch", "dyp"]
Tiebreak = Literal[
    "buchholz",
    "goals",
    "lim",
    "sonneborn_berger",
    "progressive",
    "direct_encounter",
    "points_per_match",
]
Status = Literal["registration", "swiss", "final_phase", "finished"]
RatingSystem = Literal["elo", "glicko2"]
Stage = Literal[
    "swiss",
    "round_of_64",
    "round_of_32",
    "round_of_16",
    "quarterfinal",
    "semifinal",
    "final",
    "third_place",
    "winners_round_1",
    "winners_round_2",
    "winners_round_3",
    "winners_round_4",
    "losers_round_1",
    "losers_round_2",
    "losers_round_3",
    "losers_round_4",
    "losers_round_5",
    "losers_round_6",
    "grand_final",
    "grand_final_reset",
]
Side = Literal["home", "away"]
Forfeit = Literal["home", "away", "both"]
DecidedBy = Literal["extra_time", "penalties", "golden_goal", "other"]
FormatPreset = Literal["standard", "short", "dyp"]
"""``dyp``: draw your partner, teams of two drawn every round (pairing ``dyp``)."""
FinalPhaseKind = Literal["semifinals", "final", "top_cut", "double_elimination", "none"]
SlotSource = Literal["seed", "winner", "loser"]
"""Where a bracket slot's player comes from: a seed, or the winner or loser of a match."""
BracketSide = Literal["winners", "losers", "grand_final"]
"""Where a bracket match is: a single elimination is all ``winners``."""
GroupAssignment = Literal["draw", "seeded", "pots", "manual"]
ColourRule = Literal[
    "fewer_home", "more_away", "alternation", "position", "lot", "rank", "fide", "manual"
]
CheckRule = Literal[
    "rematch", "forbidden_pair", "repeated_bye", "absolute_criteria", "colour", "score_difference"
]
"""A rule a pairing by hand is checked against (``docs/rules.md``, "Pairing by hand")."""
Severity = Literal["error", "warning"]
FideTitle = Literal["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"]
ByeKind = Literal["half_point", "zero_point"]
"""A bye a player asks for: ``half_point`` scores a draw's points, ``zero_point`` nothing."""
InitialColour = Literal["white", "black", "draw"]
PairKind = Literal["hard", "soft"]
"""A forbidden pair: ``hard`` never paired, ``soft`` avoided unless the round cannot be paired
otherwise."""
Entry = Literal["player", "team"]
"""What an entry is: one player, or a team of two named players (doubles)."""
TeamRule = Literal["off", "soft", "hard"]
"""``avoid_same_team``: whether two players of one team are a forbidden pair, and of which
kind."""
Colour = Literal["white", "black"]
EventType = Literal[
    "tournament.created",
    "round.generated",
    "round.undone",
    "round.paired_manually",
    "clock.started",
    "clock.paused",
    "clock.resumed",
    "clock.ended",
    "result.recorded",
    "result.corrected",
    "result.cleared",
    "report.claimed",
    "report.confirmed",
    "report.disputed",
    "player.withdrawn",
    "player.added",
    "player.updated",
    "bye.requested",
    "bye.cancelled",
    "forbidden_pair.added",
    "forbidden_pair.removed",
    "final_phase.started",
    "tournament.finished",
]
ClubEventType = Literal["rating.updated", "season.updated", "season.deleted"]
"""A club's event types (its outbox, its stream and its webhooks)."""
DeliveryStatus = Literal["pending", "delivered", "failed"]
ClockAction = Literal["start", "pause", "resume", "end"]
ClockState = Literal["not_started", "running", "paused", "ended"]
"""A round's clock: never started, ``running`` (also at 0: time is up), ``paused``, ``ended``."""
BoardState = Literal["open", "pending", "disputed"]
ReportStep = Literal["claimed", "confirmed", "disputed"]
Points = int | float
"""Points and Buchholz: whole numbers as ``int``, halves as ``float`` (``1.5``)."""


class Request(BaseModel):
    """A request body: unknown fields are an error here, not at the server."""

    model_config = ConfigDict(extra="forbid")


class Response(BaseModel):
    """A response body. ``etag`` is the answer's ``ETag`` (the tournament's version, quoted):
    pass it as ``if_match=`` to a write to get ``PreconditionFailed`` instead of overwriting a
    change you have not seen."""

    model_config = ConfigDict(extra="ignore")
    _etag: str | None = PrivateAttr(default=None)

    @property
    def etag(self) -> str | None:
        return self._etag


# -- problems ----------------------------------------------------------------------------------


class Problem(Response):
    """An RFC 9457 problem (``application/problem+json``); ``code`` is stable."""

    type: str
    title: str
    status: int
    detail: str
    code: str


# -- settings ----------------------------------------------------------------------------------


class PointsTableSchema(Request):
    """Points for a win, a draw, a loss and a bye: whole or half points."""

    win: Points = 3
    draw: Points = 1
    loss: Points = 0
    bye: Points = 3


class GroupsSchema(Request):
    """The groups variant: two groups filled by ``assignment`` (``manual``: the names of
    group A and of group B)."""

    count: Literal[2] = 2
    assignment: GroupAssignment
    manual: list[list[str]] | None = None


class PlayerCreate(Request):
    """A player; ``title`` (a FIDE title) and ``fide_id`` for chess (``dutch`` numbers players
    by rating, then title, then name)."""

    name: str
    rating: int | None = None
    title: FideTitle | None = None
    fide_id: int | None = None
    team: str | None = None
    """Club, school or family (``avoid_same_team``)."""
    members: list[str] | None = None
    """A team entry's two players (``entry="team"``, doubles); ``name`` is the team's."""


class TournamentCreate(Request):
    """A new tournament: everything but ``name`` and ``players`` is optional (the server's
    defaults: nearest pairing, Buchholz, 3-1-0 with 3 for a bye, the standard format)."""

    name: str
    players: list[PlayerCreate]
    pairing: PairingSystem | None = None
    tiebreak: Tiebreak | None = None
    points: PointsTableSchema | None = None
    format: FormatPreset | None = None
    swiss_rounds: int | None = None
    final_phase: FinalPhaseKind | None = None
    top_cut_size: int | None = None
    third_place: bool = False
    grand_final_reset: bool | None = None
    """double_elimination: the grand final is played again if the losers' bracket winner wins
    it (``None``: the default, played)."""
    groups: GroupsSchema | None = None
    seed: int | None = None
    initial_colour: InitialColour | None = None
    allowed_byes: list[ByeKind] | None = None
    avoid_same_team: TeamRule | None = None
    pair_checked_in_only: bool | None = None
    """Round 1 pairs only the checked-in players; the others miss round 1 only."""
    round_duration: int | None = None
    """A round's time in seconds: what a round's clock counts down (``change_clock``)."""
    player_results: bool | None = None
    """Players report results with their board's code (``create_claim``)."""
    entry: Entry | None = None
    """``team``: every entry a team of two named players (doubles, each with ``members``)."""


class TournamentUpdate(Request):
    """Rename (any time) and change settings (in registration only, but ``avoid_same_team``,
    until the tournament is finished). Fields left out stay."""

    name: str | None = None
    pairing: PairingSystem | None = None
    tiebreak: Tiebreak | None = None
    points: PointsTableSchema | None = None
    format: FormatPreset | None = None
    swiss_rounds: int | None = None
    final_phase: FinalPhaseKind | None = None
    top_cut_size: int | None = None
    third_place: bool | None = None
    grand_final_reset: bool | None = None
    groups: GroupsSchema | None = None
    seed: int | None = None
    initial_colour: InitialColour | None = None
    allowed_byes: list[ByeKind] | None = None
    avoid_same_team: TeamRule | None = None
    pair_checked_in_only: bool | None = None
    round_duration: int | None = None
    """Seconds; may change at any time (the clocks started afterwards count it)."""
    player_results: bool | None = None
    """May change at any time."""


class PlayerUpdate(Request):
    """``name`` renames; ``withdrawn=True`` withdraws (cannot be undone); ``team`` puts the
    player in a team (``team=None`` or ``""``, given: in none); ``checked_in`` puts the player
    on (or off) round 1's check-in list, in registration; ``members`` names a team entry's two
    players anew (doubles)."""

    name: str | None = None
    withdrawn: Literal[True] | None = None
    team: str | None = None
    checked_in: bool | None = None
    members: list[str] | None = None


class ForbiddenPairCreate(Request):
    """Two player ids not to be paired: ``hard`` never, ``soft`` unless the round cannot be
    paired otherwise."""

    players: list[int]
    kind: PairKind = "hard"


class ByeRequest(Request):
    """The bye a player asks for in a round they will not play."""

    kind: ByeKind


class ResultWrite(Request):
    """``ResultWrite(home=2, away=1)``; a level final-phase score names ``winner`` (and may say
    ``decided_by``); ``ResultWrite(forfeit="away")`` when the away side did not show,
    ``ResultWrite(forfeit="both")`` when neither did (a double forfeit: both lose)."""

    home: int | None = None
    away: int | None = None
    winner: Side | None = None
    decided_by: DecidedBy | None = None
    forfeit: Forfeit | None = None


class BoardWrite(Request):
    """A board set by hand: ``home`` is home (White in ``dutch``) as given."""

    home: int
    away: int


class HandPairingWrite(Request):
    """A round's boards and byes set by hand, and the rules (check codes) accepted broken:
    ``HandPairingWrite(boards=[BoardWrite(home=1, away=4)], byes=[5], accept=["rematch"])``."""

    boards: list[BoardWrite]
    byes: list[int] = []
    accept: list[CheckRule] = []


class ResultEntry(ResultWrite):
    """One result of a batch: ``ResultEntry(match_id=7, home=2, away=1)``."""

    match_id: int


class ResultsBatch(Request):
    """Several results recorded in one request, in order, all or nothing."""

    results: list[ResultEntry]


# -- tournaments and players -------------------------------------------------------------------


class FormatRead(Response):
    preset: FormatPreset
    swiss_rounds: int
    final_phase: FinalPhaseKind
    groups: int | None


class SettingsRead(Response):
    """The settings as chosen (``None`` where the format table decides)."""

    tiebreak: Tiebreak | None
    swiss_rounds: int | None
    final_phase: FinalPhaseKind | None
    top_cut_size: int | None = None
    third_place: bool = False
    grand_final_reset: bool | None = None
    groups: GroupsSchema | None
    initial_colour: InitialColour | None = None
    allowed_byes: list[ByeKind] | None = None


class WarningRead(Response):
    """Something the settings allow but the organizer should know before playing
    (``dutch_rounds_not_assured``: more Swiss rounds than the Dutch rules are sure to pair)."""

    code: str
    detail: str


class TournamentRead(Response):
    id: str
    name: str
    club_id: str | None = None
    """The club that runs it (its keys are organizers of it); None for one of its own."""
    season_id: int | None = None
    """The club's season it counts in; None for none."""
    status: Status
    pairing: PairingSystem
    tiebreak: Tiebreak
    tiebreak_criteria: list[str]
    points: PointsTableSchema
    format: FormatRead
    settings: SettingsRead
    initial_colour: Colour | None = None
    """``dutch``: the colour of round 1's top seed (chosen or drawn)."""
    allowed_byes: list[ByeKind] = Field(default_factory=list)
    avoid_same_team: TeamRule = "off"
    pair_checked_in_only: bool = False
    entry: Entry = "player"
    """``team``: entries are teams of two (doubles), named in ``members``."""
    round_duration: int | None = None
    """A round's time in seconds (``None``: none set)."""
    player_results: bool = False
    seed: int
    current_round: int
    final_phase_started: bool
    player_count: int
    last_event_id: int
    version: int
    created_at: datetime
    warnings: list[WarningRead] = Field(default_factory=list)
    live_page: str


class RequestedByeRead(Response):
    round: int
    kind: ByeKind


class PlayerRead(Response):
    id: int
    name: str
    rating: int | None
    start_number: int
    group: str | None
    withdrawn: bool
    entered_round: int
    title: FideTitle | None = None
    fide_id: int | None = None
    requested_byes: list[RequestedByeRead] = Field(default_factory=list)
    team: str | None = None
    checked_in: bool = False
    members: list[str] | None = None
    """A team entry's two players (doubles); ``None`` for a single player."""


class ForbiddenPairRead(Response):
    """Two players not to be paired (an organizer-only read)."""

    id: int
    players: list[int]
    kind: PairKind


class TournamentCreated(TournamentRead):
    """The new tournament with its players and its ``organizer_token`` (shown this once)."""

    organizer_token: str
    players: list[PlayerRead]


class TournamentPage(Response):
    items: list[TournamentRead]
    next_cursor: str | None


class AuditEntryRead(Response):
    id: int
    at: datetime
    actor: str
    action: str
    detail: dict[str, Any]


class AuditPage(Response):
    items: list[AuditEntryRead]
    next_cursor: str | None


# -- rounds and matches ------------------------------------------------------------------------


class ResultRead(Response):
    home: int
    away: int
    winner: Side | None
    decided_by: DecidedBy | None
    forfeit: Forfeit | None


class MatchRead(Response):
    id: int
    stage: Stage
    round: int | None
    group: str | None
    board: int
    home: int
    away: int
    white: int | None = None
    """``dutch``: the player with White (home); ``None`` for the other systems."""
    black: int | None = None
    colour_rule: ColourRule
    result: ResultRead | None
    manual: bool = False
    """Set by hand, not by the pairing system."""
    home_partner: int | None = None
    """DYP: ``home``'s partner, the home side's second player; ``None`` otherwise."""
    away_partner: int | None = None
    """DYP: ``away``'s partner."""

    @property
    def home_players(self) -> tuple[int, ...]:
        """The home side: ``home``, and in DYP their partner."""
        return (self.home,) if self.home_partner is None else (self.home, self.home_partner)

    @property
    def away_players(self) -> tuple[int, ...]:
        return (self.away,) if self.away_partner is None else (self.away, self.away_partner)


class PairingCheckRead(Response):
    """A rule a pairing by hand breaks: ``error`` (refused unless accepted) or ``warning``."""

    rule: CheckRule
    severity: Severity
    players: list[int]
    sentence: str


class RematchPair(Response):
    higher: int
    lower: int


class RoundRead(Response):
    number: int
    matches: list[MatchRead]
    byes: list[int]
    rematches: bool
    rematch_pairs: list[RematchPair]
    paths: list[dict[str, Any]]
    complete: bool
    manual: bool = False
    """Paired by hand (``pair_round_by_hand``, ``replace_pairing``)."""
    checks: list[PairingCheckRead] = []
    """Paired by hand: the rules the pairing breaks (errors accepted, warnings)."""


class ClockWrite(Request):
    """An action on a round's clock; ``duration`` (seconds) only with ``start``, replacing the
    tournament's ``round_duration`` for this clock."""

    action: ClockAction
    duration: int | None = None


class ClockRead(Response):
    """A round's clock: the milliseconds left at the server time ``measured_at``; while
    ``running`` they fall from there (``ends_at``: when it reaches 0), so count down from these
    two without asking again. At 0 it still runs and says ``time_up``."""

    round: int
    state: ClockState
    duration_ms: int | None
    remaining_ms: int | None
    measured_at: datetime
    ends_at: datetime | None
    time_up: bool

    def remaining_at(self, server_time: datetime) -> int | None:
        """The milliseconds left at ``server_time`` (a time of the server's clock)."""
        if self.remaining_ms is None or self.state != "running":
            return self.remaining_ms
        elapsed = max((server_time - self.measured_at) // timedelta(milliseconds=1), 0)
        return max(self.remaining_ms - elapsed, 0)


class ExplainedPlayer(Response):
    id: int
    name: str


class ExplanationStepRead(Response):
    rule: str
    ref: str
    players: list[ExplainedPlayer]
    facts: dict[str, float | int | str]
    text: str


class PlacementRead(Response):
    board: int | None
    players: list[ExplainedPlayer]
    steps: list[ExplanationStepRead]


class RoundExplanationRead(Response):
    round: int
    system: str
    language: str
    steps: list[ExplanationStepRead]
    placements: list[PlacementRead]


# -- standings and final phase -----------------------------------------------------------------


class StandingRowRead(Response):
    rank: int
    player_id: int
    name: str
    members: list[str] | None = None
    """A team entry's two players (doubles); ``None`` for a single player."""
    group: str | None
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    goals_for: int
    goals_against: int
    goal_difference: int
    points: Points
    buchholz: Points
    median_buchholz: Points
    sonneborn_berger: Points
    progressive: Points
    direct_encounter: Points | None
    qualified: bool
    withdrawn: bool
    points_per_match: float | None = None
    """DYP: points over the matches played and byes drawn (3 decimals); ``None`` otherwise."""


class StandingsRead(Response):
    tiebreak: Tiebreak
    criteria: list[str]
    group: str | None
    round: int
    rows: list[StandingRowRead]


class PlaceRead(Response):
    place: int
    player_id: int
    name: str


class FinalPhaseRead(Response):
    kind: FinalPhaseKind
    started: bool
    qualifiers: list[int]
    matches: list[MatchRead]
    final_ranking: list[PlaceRead] | None


class BracketSlotRead(Response):
    """One side of a bracket match: where its player comes from (``source`` with ``seed`` or
    ``match``, and a ``label``), the player once known, their goals and whether they won."""

    source: SlotSource
    seed: int | None
    match: int | None
    label: str
    player_id: int | None
    name: str | None
    player_seed: int | None
    goals: int | None
    won: bool


class BracketMatchRead(Response):
    """A bracket match: ``side`` and ``round`` within it; ``if_needed`` a grand final's reset,
    ``skipped`` once it is known it will not be played."""

    number: int
    round: int
    side: BracketSide = "winners"
    stage: Stage
    board: int
    if_needed: bool = False
    skipped: bool = False
    slots: list[BracketSlotRead]
    match: MatchRead | None


class BracketRoundRead(Response):
    side: BracketSide = "winners"
    number: int
    stage: Stage
    matches: list[BracketMatchRead]


class BracketSeedRead(Response):
    seed: int
    label: str
    player_id: int | None
    name: str | None


class BracketRead(Response):
    """The final phase as a bracket: rounds, matches and slots (``GET …/bracket``)."""

    kind: FinalPhaseKind
    size: int
    third_place: bool
    grand_final_reset: bool = False
    started: bool
    seeds: list[BracketSeedRead]
    rounds: list[BracketRoundRead]


class Health(Response):
    status: Literal["ok", "degraded"]
    database: Literal["ok", "unreachable"]


# -- webhooks ----------------------------------------------------------------------------------


class WebhookCreate(Request):
    """An endpoint to POST the tournament's events to; ``events`` empty: every type."""

    url: str
    events: list[EventType] = Field(default_factory=list)
    description: str | None = None


class WebhookRead(Response):
    id: int
    url: str
    events: list[EventType]
    description: str | None
    created_at: datetime


class WebhookCreated(WebhookRead):
    """The endpoint with its signing ``secret`` (shown this once)."""

    secret: str


class DeliveryRead(Response):
    id: int
    event_id: int
    event_type: EventType
    status: DeliveryStatus
    attempts: int
    last_status_code: int | None
    last_error: str | None
    next_attempt_at: datetime | None
    delivered_at: datetime | None
    created_at: datetime


class DeliveryPage(Response):
    items: list[DeliveryRead]
    next_cursor: str | None


class ClubWebhookCreate(Request):
    """An endpoint to POST the club's events to; ``events`` empty: every type."""

    url: str
    events: list[ClubEventType] = Field(default_factory=list)
    description: str | None = None


class ClubWebhookRead(Response):
    id: int
    url: str
    events: list[ClubEventType]
    description: str | None
    created_at: datetime


class ClubWebhookCreated(ClubWebhookRead):
    """The club's endpoint with its signing ``secret`` (shown this once)."""

    secret: str


class ClubDeliveryRead(Response):
    id: int
    event_id: int
    event_type: ClubEventType
    status: DeliveryStatus
    attempts: int
    last_status_code: int | None
    last_error: str | None
    next_attempt_at: datetime | None
    delivered_at: datetime | None
    created_at: datetime


class ClubDeliveryPage(Response):
    items: list[ClubDeliveryRead]
    next_cursor: str | None


# -- tokens ------------------------------------------------------------------------------------


class ClaimWrite(Request):
    """A player's claim of a Swiss board's result with the board's code (its table card):
    ``ClaimWrite(code="K7QM-4TXA", side="home", home=2, away=1)``."""

    code: str
    side: Side
    home: int
    away: int


class ClaimAnswer(Response):
    """``step``: ``claimed``, ``confirmed`` (the result is recorded), ``disputed``, or ``None``
    (the same claim again: nothing changed)."""

    step: ReportStep | None
    state: BoardState
    match: MatchRead


class SideClaimRead(Response):
    home: int
    away: int
    claimed_at: datetime


class BoardClaimsRead(Response):
    """A board with a claim: ``pending`` or ``disputed``, with each side's claim."""

    match: MatchRead
    state: BoardState
    home_claim: SideClaimRead | None
    away_claim: SideClaimRead | None


class TokenCreate(Request):
    """A scorekeeper token: it may record and clear results, nothing else."""

    label: str | None = None


class TokenRead(Response):
    id: int
    kind: Literal["scorekeeper"]
    label: str | None
    created_at: datetime
    revoked_at: datetime | None


class TokenCreated(TokenRead):
    """The new token with its secret, shown this once."""

    token: str


class OrganizerTokenRotated(Response):
    """The new organizer token; the old one no longer works."""

    organizer_token: str


# -- the checker -------------------------------------------------------------------------------


class CheckRequest(Request):
    """A stored tournament to check (a TRF is sent as the body itself: ``check_trf``)."""

    tournament: str


class CheckedBoardRead(Response):
    home: int
    away: int


class CheckedPairingRead(Response):
    boards: list[CheckedBoardRead]
    byes: list[int]


class CheckedPlayerRead(Response):
    id: int
    start_number: int
    name: str


class RoundDifferenceRead(Response):
    round: int
    recorded: CheckedPairingRead
    system: CheckedPairingRead | None
    other_opponents: list[int]
    swapped_colours: list[CheckedBoardRead]
    refusal: str | None


class CheckRead(Response):
    name: str
    tournament: str | None
    pairing: PairingSystem
    rounds: int
    rounds_checked: int
    rounds_differing: int
    unchecked_from: int | None
    differences: list[RoundDifferenceRead]
    players: list[CheckedPlayerRead]


# -- clubs and their player register (docs/clubs.md) -------------------------------------------


class ClubCreate(Request):
    """A new club; its first key comes in the answer, this once."""

    name: str
    key_label: str | None = None
    rating_system: RatingSystem | None = None
    """How the club rates its players (the server's default: ``elo``)."""
    elo_k: int | None = None
    """Elo's K factor, 1–100 (the server's default: 20)."""


class ClubUpdate(Request):
    """The fields given change; new rating settings rate the club again."""

    name: str | None = None
    rating_system: RatingSystem | None = None
    elo_k: int | None = None


class ClubRead(Response):
    id: str
    name: str
    version: int
    created_at: datetime
    tournaments: str
    """Where its tournaments are listed."""
    rating_system: RatingSystem
    elo_k: int


class ClubKeyRead(Response):
    id: int
    label: str | None
    created_at: datetime
    revoked_at: datetime | None


class ClubKeyCreated(ClubKeyRead):
    """A club key with its secret, shown this once."""

    key: str


class ClubCreated(ClubRead):
    """The new club and its first key (the client keeps it in ``client.club_keys``)."""

    key: ClubKeyCreated


class ClubPlayerCreate(Request):
    """A person of the club's register, and the other names they may be entered under."""

    name: str
    aliases: list[str] | None = None
    rating: int | None = None
    title: FideTitle | None = None
    fide_id: int | None = None
    team: str | None = None


class ClubPlayerUpdate(Request):
    """The fields given change (``None`` clears a value); ``aliases`` replaces the list."""

    name: str | None = None
    aliases: list[str] | None = None
    rating: int | None = None
    title: FideTitle | None = None
    fide_id: int | None = None
    team: str | None = None


class ClubPlayerRead(Response):
    id: int
    name: str
    aliases: list[str]
    rating: int | None
    title: FideTitle | None
    fide_id: int | None
    team: str | None


class AppearanceRead(Response):
    tournament_id: str
    tournament_name: str
    player_id: int
    name: str


class ClubPlayerDetail(ClubPlayerRead):
    tournaments: list[AppearanceRead]


class ClubPlayerPage(Response):
    items: list[ClubPlayerRead]
    next_cursor: str | None


class ClubPlayerMerge(Request):
    merged_id: int


class RegisterPlayer(Request):
    """A player of a club tournament taken from the club's register."""

    club_player_id: int


class ClubTournamentCreate(TournamentCreate):
    """A tournament of a club: players from its register (``RegisterPlayer``) or names."""

    players: list[RegisterPlayer | PlayerCreate]  # type: ignore[assignment]
    seed_by: Literal["given", "club_rating"] | None = None
    """``club_rating``: register entries play with their club rating (rounded)."""
    season_id: int | None = None
    """A season of the club the tournament counts in."""


class ClubRatingRead(Response):
    club_player_id: int
    name: str
    rating: float
    deviation: float | None
    """Glicko-2's RD (``None`` under Elo)."""
    games: int
    last_change: float
    last_tournament_id: str


class ClubRatingPage(Response):
    rating_system: RatingSystem
    items: list[ClubRatingRead]
    next_cursor: str | None


class RatingStepRead(Response):
    """A register entry's rating after one rated tournament, and how it played there."""

    tournament_id: str
    tournament_name: str
    rated_at: datetime
    rating_before: float
    rating: float
    deviation: float | None
    games: int
    score: float
    performance: float


class RatingHistoryPage(Response):
    club_player_id: int
    items: list[RatingStepRead]
    next_cursor: str | None


class ClubEventRead(Response):
    """A club-level change (``rating.updated``, ``season.updated``); ``id`` is its seq."""

    id: int
    club_id: str
    type: str
    created_at: datetime
    data: dict[str, Any]


class ClubEventPage(Response):
    items: list[ClubEventRead]
    next_after: int | None


# -- seasons ---------------------------------------------------------------------------------

SeasonScoring = Literal["places", "points", "average"]
"""``places``: points by final place; ``points``: the sum of Swiss points; ``average``: Swiss
points per round played."""


class SeasonCreate(Request):
    name: str
    scoring: SeasonScoring
    place_points: list[int] | None = None
    """``places`` only: points of places 1, 2, … (default 25-18-15-12-10-8-6-4-2-1)."""
    best: int | None = None
    """Count only each player's best N evenings."""


class SeasonUpdate(Request):
    """The fields given change (``best=None``, given: every evening counts again); a new rule
    re-ranks the table at once."""

    name: str | None = None
    scoring: SeasonScoring | None = None
    place_points: list[int] | None = None
    best: int | None = None


class TournamentSeason(Request):
    season_id: int | None
    """The season of the tournament's club it counts in (None: none)."""


class SeasonRead(Response):
    id: int
    club_id: str
    name: str
    scoring: SeasonScoring
    place_points: list[int]
    best: int | None
    version: int
    created_at: datetime
    standings: str


class SeasonPage(Response):
    items: list[SeasonRead]
    next_cursor: str | None


class SeasonEveningRead(Response):
    tournament_id: str
    name: str
    status: Status
    created_at: datetime
    counted: bool
    """Finished: its final ranking counts in the table."""


class SeasonStandingRow(Response):
    rank: int
    club_player_id: int
    name: str
    score: float
    evenings: int
    counted: int
    best_place: int
    points: float
    matches: int
    head_to_head: float | None


class SeasonStandingsRead(Response):
    season: SeasonRead
    evenings: list[SeasonEveningRead]
    tiebreaks: list[str]
    rows: list[SeasonStandingRow]
