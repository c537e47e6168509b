"""The event outbox: each change writes its events in its own transaction.

``emit`` gives each event the tournament's next ``seq`` (1, 2, 3, … without gaps): writes to a
tournament hold its row lock (``access.lock_header``), so ``max(seq) + 1`` cannot be taken twice
and events become visible in ``seq`` order. On PostgreSQL it also queues a ``NOTIFY`` on
``CHANNEL`` (delivered at commit, dropped on rollback) so every worker's stream wakes at once.
The data of each type is built here from the API's own shapes (``app.services.views``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, text
from sqlalchemy.orm import Session

from app.db import note_emitted
from app.domain.forbidden import ForbiddenPair
from app.domain.matches import Match, MatchChanges, MatchId, SwissRound
from app.domain.tournament import Tournament
from app.domain.types import ByeKind, Player, PlayerId, RoundNumber, Stage, Status
from app.models import EventRow
from app.services import views
from app.services.storage import now

E = EventRow.__table__  # type: ignore[attr-defined]
CHANNEL = "svizzera_events"
"""PostgreSQL ``LISTEN``/``NOTIFY`` channel; the payload is the tournament id."""

TOURNAMENT_CREATED = "tournament.created"
ROUND_GENERATED = "round.generated"
ROUND_UNDONE = "round.undone"
ROUND_PAIRED_MANUALLY = "round.paired_manually"
CLOCK_STARTED = "clock.started"
CLOCK_PAUSED = "clock.paused"
CLOCK_RESUMED = "clock.resumed"
CLOCK_ENDED = "clock.ended"
RESULT_RECORDED = "result.recorded"
RESULT_CORRECTED = "result.corrected"
RESULT_CLEARED = "result.cleared"
REPORT_CLAIMED = "report.claimed"
REPORT_CONFIRMED = "report.confirmed"
REPORT_DISPUTED = "report.disputed"
PLAYER_WITHDRAWN = "player.withdrawn"
PLAYER_ADDED = "player.added"
PLAYER_UPDATED = "player.updated"
BYE_REQUESTED = "bye.requested"
BYE_CANCELLED = "bye.cancelled"
FORBIDDEN_PAIR_ADDED = "forbidden_pair.added"
FORBIDDEN_PAIR_REMOVED = "forbidden_pair.removed"
FINAL_PHASE_STARTED = "final_phase.started"
TOURNAMENT_FINISHED = "tournament.finished"
TYPES = (
    TOURNAMENT_CREATED,
    ROUND_GENERATED,
    ROUND_UNDONE,
    ROUND_PAIRED_MANUALLY,
    CLOCK_STARTED,
    CLOCK_PAUSED,
    CLOCK_RESUMED,
    CLOCK_ENDED,
    RESULT_RECORDED,
    RESULT_CORRECTED,
    RESULT_CLEARED,
    REPORT_CLAIMED,
    REPORT_CONFIRMED,
    REPORT_DISPUTED,
    PLAYER_WITHDRAWN,
    PLAYER_ADDED,
    PLAYER_UPDATED,
    BYE_REQUESTED,
    BYE_CANCELLED,
    FORBIDDEN_PAIR_ADDED,
    FORBIDDEN_PAIR_REMOVED,
    FINAL_PHASE_STARTED,
    TOURNAMENT_FINISHED,
)

NewEvent = tuple[str, dict[str, Any]]
"""An event to emit: its type and its data."""
Describe = Callable[[Tournament, Any], list[NewEvent]]
"""Given the tournament after a command and the command's outcome: the events it caused."""


@dataclass(frozen=True, slots=True)
class Event:
    """A stored event."""

    seq: int
    tournament_id: str
    type: str
    data: dict[str, Any]
    created_at: datetime


def envelope(event: Event) -> dict[str, Any]:
    """The body every channel sends (SSE ``data:``, webhook deliveries): ``id`` is the ``seq``."""
    return {
        "id": event.seq,
        "tournament_id": event.tournament_id,
        "type": event.type,
        "created_at": event.created_at.isoformat(),
        "data": event.data,
    }


def emit(
    session: Session, tournament_id: str, new: Sequence[NewEvent], *, version: int
) -> list[int]:
    """Store the events of one change, in order, in the current transaction; their ``seq``.

    ``version`` is the tournament's version after the change: it goes into each event's data,
    so a client knows whether a read it holds (its ``ETag``) already includes the change. One
    query takes the next ``seq`` and one statement inserts them all (a bulk request's 2,048).
    The caller holds the tournament's row lock (or has just inserted the tournament).
    """
    if not new:
        return []
    first = (
        session.execute(
            select(func.coalesce(func.max(E.c.seq), 0)).where(E.c.tournament_id == tournament_id)
        ).scalar_one()
        + 1
    )
    at = now()
    rows = [
        {
            "tournament_id": tournament_id,
            "seq": first + i,
            "type": type_,
            "data": {**data, "version": version},
            "created_at": at,
        }
        for i, (type_, data) in enumerate(new)
    ]
    session.execute(insert(E), rows)
    if session.get_bind().dialect.name == "postgresql":
        session.execute(
            text("SELECT pg_notify(:channel, :tid)"), {"channel": CHANNEL, "tid": tournament_id}
        )
    note_emitted(session, tournament_id)
    return [int(first) + i for i in range(len(new))]


def events_after(
    session: Session, tournament_id: str, after_seq: int, limit: int = 500
) -> list[Event]:
    """The tournament's events with ``seq > after_seq``, in order, at most ``limit``."""
    rows = session.execute(
        select(E.c.seq, E.c.tournament_id, E.c.type, E.c.data, E.c.created_at)
        .where(E.c.tournament_id == tournament_id, E.c.seq > after_seq)
        .order_by(E.c.seq)
        .limit(limit)
    )
    return [Event(r[0], r[1], r[2], r[3], views.aware(r[4])) for r in rows]


def last_seqs(session: Session, tournament_ids: Sequence[str]) -> dict[str, int]:
    """The latest ``seq`` of each of ``tournament_ids`` that has events."""
    if not tournament_ids:
        return {}
    rows = session.execute(
        select(E.c.tournament_id, func.max(E.c.seq))
        .where(E.c.tournament_id.in_(list(tournament_ids)))
        .group_by(E.c.tournament_id)
    )
    return {r[0]: int(r[1]) for r in rows}


# -- the data of each event type ---------------------------------------------------------------


def _dump(model: Any) -> dict[str, Any]:
    dumped: dict[str, Any] = model.model_dump(mode="json")
    return dumped


def player_data(player: Player) -> dict[str, Any]:
    return {"player": _dump(views.player(player))}


def bye_data(player: Player, number: int, kind: ByeKind) -> dict[str, Any]:
    return {"player": _dump(views.player(player)), "round": number, "kind": kind.value}


def forbidden_pair_data(pair: ForbiddenPair) -> dict[str, Any]:
    """The pair's id and kind, never its players: the stream is public, the pairs are not."""
    return {"forbidden_pair_id": pair.id, "kind": pair.kind.value}


def round_data(tournament: Tournament, swiss_round: SwissRound) -> dict[str, Any]:
    """The round counted, never its boards (they grow with the field: a read)."""
    return {"round": _dump(views.round_summary(tournament, swiss_round))}


def final_phase_data(tournament: Tournament) -> dict[str, Any]:
    return {"final_phase": _dump(views.final_phase(tournament))}


PODIUM = 3
"""Places ``tournament.finished`` names; the whole final ranking is a read (``…/final-phase``)."""


def finished_data(tournament: Tournament) -> dict[str, Any]:
    ranking = views.final_phase(tournament).final_ranking or []
    return {"podium": [_dump(place) for place in ranking[:PODIUM]]}


def tournament_data(summary: views.Summary) -> dict[str, Any]:
    """The tournament as read, without what grows with the field: its players are a read
    (``tournament.player_count`` counts them), and so are the names of manual groups."""
    read = views.tournament(summary)
    groups = read.settings.groups
    if groups is not None and groups.manual is not None:
        settings = read.settings.model_copy(
            update={"groups": groups.model_copy(update={"manual": None})}
        )
        read = read.model_copy(update={"settings": settings})
    return {"tournament": _dump(read)}


class ResultWatch:
    """What a result command may change beyond its match, taken before it: whether the match had
    a result, and the final-phase matches (a semifinal forms the final). The standings are not
    watched: their changed rows grow with the field (a result moves ranks below it), so clients
    read them (``GET …/standings``, conditional on the event's ``version``)."""

    def __init__(
        self, before: Tournament, match_id: int, *, shared: ResultWatch | None = None
    ) -> None:
        self.match_id = match_id
        previous = before.matches.get(MatchId(match_id))
        self.had_result = previous is not None and previous.result is not None
        # another match of the same batch: the same state before
        self.finals: dict[MatchId, Match] = (
            shared.finals if shared is not None else {m.id: m for m in before.final_matches()}
        )

    def event(self, after: Tournament, changes: MatchChanges, status: Status) -> NewEvent:
        """The event of the match; ``status`` is ``after.status`` (a batch computes it once:
        it looks at every match)."""
        match = after.matches[MatchId(self.match_id)]
        kind, data = result_event(match, had_result=self.had_result, status=status)
        if match.stage is not Stage.SWISS:
            data["finals_written"] = [
                _dump(views.match(m))
                for m in changes.written
                if m.id != match.id and self.finals.get(m.id) != m
            ]
            data["finals_removed"] = list(changes.removed)
        return kind, data


def result_event(match: Match, *, had_result: bool, status: Status) -> NewEvent:
    """``result.recorded|corrected|cleared`` of ``match`` as it is after the write (``had_result``:
    it had one before), with the tournament's status after it."""
    if match.result is None:
        kind = RESULT_CLEARED
    else:
        kind = RESULT_CORRECTED if had_result else RESULT_RECORDED
    return kind, {"match": _dump(views.match(match)), "status": status.value}


def result_events(match_id: int) -> Callable[[Tournament], Describe]:
    """The watch of a result command on ``match_id``: ``result.recorded|corrected|cleared``."""

    def watch(before: Tournament) -> Describe:
        taken = ResultWatch(before, match_id)
        return lambda after, changes: (
            [taken.event(after, changes, after.status)] if changes.written else []
        )

    return watch


def batch_result_events(match_ids: Sequence[int]) -> Callable[[Tournament], Describe]:
    """The watch of several results in one command: one ``result.*`` event per match, in order,
    each as small as a single result's (none carries the standings)."""

    def watch(before: Tournament) -> Describe:
        first = ResultWatch(before, match_ids[0])
        taken = [first, *(ResultWatch(before, m, shared=first) for m in match_ids[1:])]

        def describe(after: Tournament, changes: list[MatchChanges]) -> list[NewEvent]:
            status = after.status
            pairs = zip(taken, changes, strict=True)
            return [w.event(after, c, status) for w, c in pairs if c.written]

        return describe

    return watch


def bye_events(player_id: int, number: int) -> Callable[[Tournament], Describe]:
    """The watch of a bye command on round ``number``: ``bye.requested`` when the player's bye
    there is new or of another kind, ``bye.cancelled`` when one is taken back. Asking again for
    the same kind, or taking back a bye never asked for, changes nothing and says nothing."""

    def watch(before: Tournament) -> Describe:
        was = _bye_in(before.players.get(PlayerId(player_id)), number)

        def describe(_after: Tournament, player: Player) -> list[NewEvent]:
            now = _bye_in(player, number)
            if now == was:
                return []
            if now is not None:
                return [(BYE_REQUESTED, bye_data(player, number, now))]
            return [(BYE_CANCELLED, bye_data(player, number, was))] if was is not None else []

        return describe

    return watch


def _bye_in(player: Player | None, number: int) -> ByeKind | None:
    if player is None:  # the command refuses it
        return None
    return next((b.kind for b in player.requested_byes if b.round == RoundNumber(number)), None)


def finished(before: Status, after: Tournament) -> list[NewEvent]:
    """``tournament.finished`` when a command made the status ``finished``."""
    if before is not Status.FINISHED and after.status is Status.FINISHED:
        return [(TOURNAMENT_FINISHED, finished_data(after))]
    return []
