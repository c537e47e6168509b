"""Events: the envelope every channel sends (the stream's ``data:`` line, a webhook's body) and
the data of each type, as in the ``webhooks`` section of ``/openapi.json`` (docs/events.md).

``parse_event`` turns an envelope into the class of its ``type``; a type this client does not
know yet comes back as a plain ``EventEnvelope`` with ``data`` as a dict. A club's events
(``rating.updated``, ``season.updated``, ``season.deleted``) name the club instead of a tournament:
``parse_club_event`` reads them (``ClubEventEnvelope``).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, model_validator

from svizzera_client.models import (
    ByeKind,
    ClockRead,
    FinalPhaseRead,
    MatchRead,
    PairKind,
    PlaceRead,
    PlayerRead,
    Side,
    Status,
    TournamentRead,
)


class EventData(BaseModel):
    """``version`` is the tournament's version after the change: a read whose ``etag`` is
    ``'"<version>"'`` or later includes it (``None`` only in events stored before events
    carried it). Events carry what changed, never the standings: read those when a result's
    ``version`` is newer than the copy you hold."""

    model_config = ConfigDict(extra="ignore")

    version: int | None = None


class TournamentCreatedData(EventData):
    """The new tournament (``settings.groups.manual`` is ``None``: the names of manual groups
    grow with the field). The players are a read: ``list_players``; ``tournament.player_count``
    says how many."""

    tournament: TournamentRead


class RoundSummary(BaseModel):
    """A round as its events name it: number, how it was paired, and what it holds, counted.
    Its boards grow with the field: ``get_round(tournament_id, number)`` reads them."""

    model_config = ConfigDict(extra="ignore")

    number: int
    manual: bool = False
    rematches: bool = False
    match_count: int
    bye_count: int
    check_count: int = 0

    @model_validator(mode="before")
    @classmethod
    def _counted(cls, data: Any) -> Any:
        """An event stored before events counted the round carried the whole round: count it."""
        if isinstance(data, dict) and "match_count" not in data and "matches" in data:
            listed = {"matches": "match_count", "byes": "bye_count", "checks": "check_count"}
            return {**data, **{count: len(data.get(k) or []) for k, count in listed.items()}}
        return data


class RoundGeneratedData(EventData):
    round: RoundSummary


class RoundPairedManuallyData(EventData):
    """The latest round after its boards and byes were replaced by hand, counted, and how many
    of its matches were replaced (they no longer exist; ``get_round`` reads it as it is)."""

    round: RoundSummary
    removed_match_count: int

    @model_validator(mode="before")
    @classmethod
    def _counted(cls, data: Any) -> Any:
        """An event stored before events counted the round listed the matches removed."""
        if isinstance(data, dict) and "removed_match_count" not in data:
            return {**data, "removed_match_count": len(data.get("removed_matches") or [])}
        return data


class ClockData(EventData):
    """A round's clock after the organizer's action, measured at the action's time."""

    clock: ClockRead


class RoundUndoneData(EventData):
    """The round taken back, counted as it was (its matches no longer exist), and the status
    after."""

    round: RoundSummary
    status: Status


class ResultData(EventData):
    """The match with its result (``None`` once cleared) and the status after the change; in
    the final phase the finals a semifinal formed or removed."""

    match: MatchRead
    status: Status
    finals_written: list[MatchRead] | None = None
    finals_removed: list[int] | None = None


class PlayerData(EventData):
    player: PlayerRead


class ByeData(EventData):
    """The player after the change, the round, and the bye's kind (the kind taken back, for
    ``bye.cancelled``)."""

    player: PlayerRead
    round: int
    kind: ByeKind


class ForbiddenPairData(EventData):
    """A pair listed or taken off the list: its id and kind only (the stream is public, the
    pairs are not; ``list_forbidden_pairs`` reads them with the organizer token)."""

    forbidden_pair_id: int
    kind: PairKind


class ReportData(EventData):
    """A player's claim of a board's result: the board and the side that claimed (never the
    code, nor the score: ``list_claims`` reads the claims with the organizer token)."""

    match_id: int
    round: int
    board: int
    side: Side


class FinalPhaseStartedData(EventData):
    final_phase: FinalPhaseRead


class TournamentFinishedData(EventData):
    """Places 1 to 3; the whole final ranking is ``get_final_phase(...).final_ranking``."""

    podium: list[PlaceRead]


class EventEnvelope(BaseModel):
    """One event. ``id`` is its sequence number in the tournament (1, 2, 3, … without gaps):
    the stream's ``Last-Event-ID``."""

    model_config = ConfigDict(extra="ignore")

    id: int
    tournament_id: str
    type: str
    created_at: datetime
    data: Any


class TournamentCreatedEvent(EventEnvelope):
    type: Literal["tournament.created"]
    data: TournamentCreatedData


class RoundGeneratedEvent(EventEnvelope):
    type: Literal["round.generated"]
    data: RoundGeneratedData


class RoundUndoneEvent(EventEnvelope):
    type: Literal["round.undone"]
    data: RoundUndoneData


class RoundPairedManuallyEvent(EventEnvelope):
    type: Literal["round.paired_manually"]
    data: RoundPairedManuallyData


class ResultRecordedEvent(EventEnvelope):
    type: Literal["result.recorded"]
    data: ResultData


class ResultCorrectedEvent(EventEnvelope):
    type: Literal["result.corrected"]
    data: ResultData


class ResultClearedEvent(EventEnvelope):
    type: Literal["result.cleared"]
    data: ResultData


class ReportClaimedEvent(EventEnvelope):
    type: Literal["report.claimed"]
    data: ReportData


class ReportConfirmedEvent(EventEnvelope):
    type: Literal["report.confirmed"]
    data: ReportData


class ReportDisputedEvent(EventEnvelope):
    type: Literal["report.disputed"]
    data: ReportData


class PlayerAddedEvent(EventEnvelope):
    type: Literal["player.added"]
    data: PlayerData


class PlayerUpdatedEvent(EventEnvelope):
    type: Literal["player.updated"]
    data: PlayerData


class PlayerWithdrawnEvent(EventEnvelope):
    type: Literal["player.withdrawn"]
    data: PlayerData


class ByeRequestedEvent(EventEnvelope):
    type: Literal["bye.requested"]
    data: ByeData


class ByeCancelledEvent(EventEnvelope):
    type: Literal["bye.cancelled"]
    data: ByeData


class ForbiddenPairAddedEvent(EventEnvelope):
    type: Literal["forbidden_pair.added"]
    data: ForbiddenPairData


class ForbiddenPairRemovedEvent(EventEnvelope):
    type: Literal["forbidden_pair.removed"]
    data: ForbiddenPairData


class ClockStartedEvent(EventEnvelope):
    type: Literal["clock.started"]
    data: ClockData


class ClockPausedEvent(EventEnvelope):
    type: Literal["clock.paused"]
    data: ClockData


class ClockResumedEvent(EventEnvelope):
    type: Literal["clock.resumed"]
    data: ClockData


class ClockEndedEvent(EventEnvelope):
    type: Literal["clock.ended"]
    data: ClockData


class FinalPhaseStartedEvent(EventEnvelope):
    type: Literal["final_phase.started"]
    data: FinalPhaseStartedData


class TournamentFinishedEvent(EventEnvelope):
    type: Literal["tournament.finished"]
    data: TournamentFinishedData


EVENT_CLASSES: dict[str, type[EventEnvelope]] = {
    "tournament.created": TournamentCreatedEvent,
    "round.generated": RoundGeneratedEvent,
    "round.undone": RoundUndoneEvent,
    "round.paired_manually": RoundPairedManuallyEvent,
    "clock.started": ClockStartedEvent,
    "clock.paused": ClockPausedEvent,
    "clock.resumed": ClockResumedEvent,
    "clock.ended": ClockEndedEvent,
    "result.recorded": ResultRecordedEvent,
    "result.corrected": ResultCorrectedEvent,
    "result.cleared": ResultClearedEvent,
    "report.claimed": ReportClaimedEvent,
    "report.confirmed": ReportConfirmedEvent,
    "report.disputed": ReportDisputedEvent,
    "player.added": PlayerAddedEvent,
    "player.updated": PlayerUpdatedEvent,
    "player.withdrawn": PlayerWithdrawnEvent,
    "bye.requested": ByeRequestedEvent,
    "bye.cancelled": ByeCancelledEvent,
    "forbidden_pair.added": ForbiddenPairAddedEvent,
    "forbidden_pair.removed": ForbiddenPairRemovedEvent,
    "final_phase.started": FinalPhaseStartedEvent,
    "tournament.finished": TournamentFinishedEvent,
}


def parse_event(raw: str | bytes) -> EventEnvelope:
    """The envelope in ``raw`` (JSON) as the class of its type."""
    envelope = json.loads(raw)
    kind = envelope.get("type") if isinstance(envelope, dict) else None
    return EVENT_CLASSES.get(kind or "", EventEnvelope).model_validate(envelope)


# -- a club's events ---------------------------------------------------------------------------


class RatingUpdatedData(BaseModel):
    """The club's ratings moved: ``reason`` ``tournament`` (``tournament_id`` was rated) or
    ``recomputed`` (the club was rated again over ``tournaments`` tournaments); ``players``
    ratings moved. The ratings are a read: ``list_club_ratings``."""

    model_config = ConfigDict(extra="ignore")

    reason: str
    players: int
    tournament_id: str | None = None
    tournaments: int | None = None


class SeasonUpdatedData(BaseModel):
    """A season's table may have changed (``get_season_standings`` reads it), for a
    ``reason``: ``tournament`` (``tournament_id``), ``merge`` (a register merge that kept
    ``club_player_id``) or ``settings`` (the ``changed`` fields of its name and rule)."""

    model_config = ConfigDict(extra="ignore")

    season_id: int
    tournament_id: str | None
    reason: str | None = None
    club_player_id: int | None = None
    changed: list[str] | None = None


class SeasonDeletedData(BaseModel):
    """The season was deleted; ``tournaments`` of it left it and stay, in no season."""

    model_config = ConfigDict(extra="ignore")

    season_id: int
    tournaments: int


class ClubEventEnvelope(BaseModel):
    """One event of a club. ``id`` is its sequence number in the club (1, 2, 3, … without
    gaps): the club stream's ``Last-Event-ID``."""

    model_config = ConfigDict(extra="ignore")

    id: int
    club_id: str
    type: str
    created_at: datetime
    data: Any


class RatingUpdatedEvent(ClubEventEnvelope):
    type: Literal["rating.updated"]
    data: RatingUpdatedData


class SeasonUpdatedEvent(ClubEventEnvelope):
    type: Literal["season.updated"]
    data: SeasonUpdatedData


class SeasonDeletedEvent(ClubEventEnvelope):
    type: Literal["season.deleted"]
    data: SeasonDeletedData


CLUB_EVENT_CLASSES: dict[str, type[ClubEventEnvelope]] = {
    "rating.updated": RatingUpdatedEvent,
    "season.updated": SeasonUpdatedEvent,
    "season.deleted": SeasonDeletedEvent,
}


def parse_club_event(raw: str | bytes) -> ClubEventEnvelope:
    """A club's envelope in ``raw`` (JSON) as the class of its type."""
    envelope = json.loads(raw)
    kind = envelope.get("type") if isinstance(envelope, dict) else None
    return CLUB_EVENT_CLASSES.get(kind or "", ClubEventEnvelope).model_validate(envelope)
