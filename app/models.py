"""The tables. Alembic migrations (``migrations/``) are the only way they are created.

Player and match numbers are the per-tournament integer ids the domain assigns, so their keys
are ``(tournament_id, number)``. Scores are stored in half-points, like the domain keeps them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKeyConstraint,
    Index,
    Text,
    UniqueConstraint,
    false,
)
from sqlmodel import Field, SQLModel

from app.db import apply_naming_convention

apply_naming_convention(SQLModel.metadata)


class TournamentRow(SQLModel, table=True):
    __tablename__ = "tournament"
    __table_args__ = (
        Index("ix_tournament_created_at_id", "created_at", "id"),
        Index("ix_tournament_club_id_created_at_id", "club_id", "created_at", "id"),
        Index("ix_tournament_season_id_created_at_id", "season_id", "created_at", "id"),
    )

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(max_length=120)
    token_hash: str = Field(max_length=64)
    version: int = Field(default=1)
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    updated_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    status: str = Field(max_length=16)
    # settings as chosen (half-points)
    seed: int = Field(sa_type=BigInteger)
    pairing: str = Field(max_length=16)
    tiebreak: str | None = Field(default=None, max_length=16)
    points_win: int
    points_draw: int
    points_loss: int
    points_bye: int
    format_preset: str = Field(max_length=16)
    swiss_rounds: int | None = None
    # a FinalPhaseKind, never free text: without a length so that `double_elimination` fits
    # where SQLite's tables of before keep VARCHAR(16) (its lengths are not enforced, and
    # rebuilding the table would cascade to every player; the migration widens PostgreSQL's)
    final_phase: str | None = Field(default=None)
    groups: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    # dutch: round 1's colour (null: drawn from the seed)
    initial_colour: str | None = Field(default=None, max_length=8)
    # the kinds of bye a player may ask for (null: the pairing system's default)
    allowed_byes: list[str] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    # off, soft or hard: whether two players of one team are a forbidden pair
    avoid_same_team: str = Field(
        default="off", max_length=8, sa_column_kwargs={"server_default": "off"}
    )
    # round 1 pairs only the players checked in (app.domain.attendance)
    pair_checked_in_only: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    # a round's time in seconds, what its clock counts down (null: none set)
    round_duration: int | None = None
    # players may report results with their board's code (app.services.reports)
    player_results: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    # the key board codes are derived from (hex; null: none made yet); never shown, never logged
    report_key: str | None = Field(default=None, max_length=64)
    # final phase top_cut: its size, and whether a third-place match is played
    top_cut_size: int | None = None
    third_place: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    # final phase double_elimination: whether the grand final's reset is played (null: yes)
    grand_final_reset: bool | None = None
    # an entry is a player, or a team of two named players (doubles); chosen at creation
    entry: str = Field(
        default="player", max_length=8, sa_column_kwargs={"server_default": "player"}
    )
    # the format in force, as resolved by the domain at the last write
    resolved_swiss_rounds: int
    resolved_final_phase: str = Field()  # a FinalPhaseKind: see final_phase
    resolved_groups: int
    final_phase_started: bool = Field(default=False)
    # a top cut's seeds (player numbers, best first), fixed when it starts
    final_seeds: list[int] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    current_round: int = Field(default=0)
    # the club that runs it (null: a tournament of its own, as before clubs)
    club_id: str | None = Field(default=None, max_length=32, foreign_key="club.id")
    # the club's season it counts in (null: none)
    season_id: int | None = Field(default=None, foreign_key="season.id")


class PlayerRow(SQLModel, table=True):
    __tablename__ = "player"

    tournament_id: str = Field(
        primary_key=True, max_length=32, foreign_key="tournament.id", ondelete="CASCADE"
    )
    number: int = Field(primary_key=True)
    name: str = Field(max_length=80)
    start_number: int
    rating: int | None = None
    group: str | None = Field(default=None, max_length=1)
    entered_round: int = Field(default=1)
    withdrawn_after: int | None = None
    title: str | None = Field(default=None, max_length=3)
    fide_id: int | None = Field(default=None, sa_type=BigInteger)
    # the byes asked for, [[round, kind], ...] by round (null: none)
    requested_byes: list[list[Any]] | None = Field(
        default=None, sa_column=Column(JSON, nullable=True)
    )
    team: str | None = Field(default=None, max_length=40)
    # on round 1's check-in list
    checked_in: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    # the club register's entry this player is (null: a club-less tournament); a merge of two
    # entries points the players of the merged one here to the kept one
    club_player_id: int | None = Field(default=None, foreign_key="club_player.id", index=True)
    # a team entry's two players, [name, name] (null: a single player)
    members: list[str] | None = Field(default=None, sa_column=Column(JSON, nullable=True))


class ForbiddenPairRow(SQLModel, table=True):
    """Two players the organizer listed as not to be paired (``first`` the lower number).
    Deleting either player deletes the pair; the unique constraint refuses the same two
    twice, whatever the kind."""

    __tablename__ = "forbidden_pair"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "first"],
            ["player.tournament_id", "player.number"],
            ondelete="CASCADE",
        ),
        ForeignKeyConstraint(
            ["tournament_id", "second"],
            ["player.tournament_id", "player.number"],
            ondelete="CASCADE",
        ),
        UniqueConstraint("tournament_id", "first", "second"),
    )

    tournament_id: str = Field(
        primary_key=True, max_length=32, foreign_key="tournament.id", ondelete="CASCADE"
    )
    number: int = Field(primary_key=True)
    first: int
    second: int
    kind: str = Field(max_length=8)


class RoundRow(SQLModel, table=True):
    __tablename__ = "round"

    tournament_id: str = Field(
        primary_key=True, max_length=32, foreign_key="tournament.id", ondelete="CASCADE"
    )
    number: int = Field(primary_key=True)
    byes: list[int] = Field(sa_column=Column(JSON, nullable=False))
    rematch_pairs: list[list[int]] = Field(sa_column=Column(JSON, nullable=False))
    paths: list[Any] = Field(sa_column=Column(JSON, nullable=False))
    explanation: dict[str, Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))
    """Why the round is paired as it is, as generated (null: generated before rounds kept it)."""
    # paired by hand (PUT …/pairing, POST …/rounds with boards), with the checks it accepted
    manual: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    checks: list[Any] | None = Field(default=None, sa_column=Column(JSON, nullable=True))


class RoundClockRow(SQLModel, table=True):
    """A Swiss round's clock as of its last action (``app.domain.clock``): the time left at
    ``measured_at`` and whether it runs from there. No row: never started. It goes with its
    round (an undone round takes its clock along)."""

    __tablename__ = "round_clock"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "round"],
            ["round.tournament_id", "round.number"],
            ondelete="CASCADE",
        ),
    )

    tournament_id: str = Field(primary_key=True, max_length=32)
    round: int = Field(primary_key=True)
    state: str = Field(max_length=16)
    duration_ms: int
    remaining_ms: int
    measured_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class MatchRow(SQLModel, table=True):
    __tablename__ = "match"
    __table_args__ = (
        Index("ix_match_tournament_id_stage_round", "tournament_id", "stage", "round"),
    )

    tournament_id: str = Field(
        primary_key=True, max_length=32, foreign_key="tournament.id", ondelete="CASCADE"
    )
    number: int = Field(primary_key=True)
    stage: str = Field()  # a Stage (`grand_final_reset` is 17): see TournamentRow.final_phase
    round: int | None = None
    group: str | None = Field(default=None, max_length=1)
    board: int
    home: int
    away: int
    colour_rule: str = Field(max_length=16)
    # a board set by hand, not by the pairing system
    manual: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    # DYP: the second player of each side (home's and away's partner); null otherwise
    home_partner: int | None = None
    away_partner: int | None = None


class ResultRow(SQLModel, table=True):
    __tablename__ = "result"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "match_number"],
            ["match.tournament_id", "match.number"],
            ondelete="CASCADE",
        ),
    )

    tournament_id: str = Field(primary_key=True, max_length=32)
    match_number: int = Field(primary_key=True)
    home_goals: int
    away_goals: int
    winner: str | None = Field(default=None, max_length=8)
    decided_by: str | None = Field(default=None, max_length=16)
    forfeit: str | None = Field(default=None, max_length=8)
    recorded_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class ResultClaimRow(SQLModel, table=True):
    """A side's latest claim of a board's result, entered by a player with the board's code.

    At most one per side; a confirmed claim, and any result the organizer records, deletes the
    board's claims (so do a board's removal and a change of its players)."""

    __tablename__ = "result_claim"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "match_number"],
            ["match.tournament_id", "match.number"],
            ondelete="CASCADE",
        ),
    )

    tournament_id: str = Field(primary_key=True, max_length=32)
    match_number: int = Field(primary_key=True)
    side: str = Field(primary_key=True, max_length=8)
    home_goals: int
    away_goals: int
    claimed_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class ReportCountRow(SQLModel, table=True):
    """Result claims attempted in one minute, per board and per client address (both hashed):
    the report quota. Rows of past minutes are deleted as new ones come."""

    __tablename__ = "report_count"
    __table_args__ = (Index("ix_report_count_minute", "minute"),)

    key: str = Field(primary_key=True, max_length=64)
    minute: int = Field(primary_key=True, sa_type=BigInteger)
    """Minutes since the Unix epoch."""
    count: int


class AuditRow(SQLModel, table=True):
    __tablename__ = "audit_entry"
    __table_args__ = (Index("ix_audit_entry_tournament_id_id", "tournament_id", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(max_length=32, foreign_key="tournament.id", ondelete="CASCADE")
    at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    actor: str = Field(max_length=16)
    action: str = Field(max_length=40)
    detail: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))


class AccessTokenRow(SQLModel, table=True):
    """A scorekeeper's token: it may only record and clear results. Only its hash is kept; a
    revoked token keeps its row (the audit trail names it) and stops working at once."""

    __tablename__ = "access_token"
    __table_args__ = (
        UniqueConstraint("token_hash"),
        Index("ix_access_token_tournament_id", "tournament_id"),
    )

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(max_length=32, foreign_key="tournament.id", ondelete="CASCADE")
    kind: str = Field(max_length=16)
    label: str | None = Field(default=None, max_length=80)
    token_hash: str = Field(max_length=64)
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    revoked_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )


class EventRow(SQLModel, table=True):
    """The outbox: one row per change, written in the transaction that makes the change.

    ``seq`` counts from 1 per tournament without gaps; it is allocated under the tournament row
    lock, so it becomes visible in commit order per tournament. ``id`` is only a surrogate key:
    across tournaments it does not follow commit order. The unique constraint on
    ``(tournament_id, seq)`` is also the index that reads "events after seq n" use.
    """

    __tablename__ = "event"
    __table_args__ = (UniqueConstraint("tournament_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(max_length=32, foreign_key="tournament.id", ondelete="CASCADE")
    seq: int
    type: str = Field(max_length=40)
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class WebhookEndpointRow(SQLModel, table=True):
    """A receiver of one tournament's events, or of one club's (``club_event``): exactly one
    owner is set. ``cursor`` is the owner's last event seq enqueued for it."""

    __tablename__ = "webhook_endpoint"
    __table_args__ = (
        Index("ix_webhook_endpoint_tournament_id", "tournament_id"),
        Index("ix_webhook_endpoint_club_id", "club_id"),
        CheckConstraint("(tournament_id IS NULL) <> (club_id IS NULL)", name="one_owner"),
    )

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str | None = Field(
        default=None, max_length=32, foreign_key="tournament.id", ondelete="CASCADE"
    )
    club_id: str | None = Field(
        default=None, max_length=32, foreign_key="club.id", ondelete="CASCADE"
    )
    url: str = Field(max_length=2048)
    event_types: list[str] = Field(sa_column=Column(JSON, nullable=False))
    description: str | None = Field(default=None, max_length=200)
    # Kept raw: signing needs it back (see docs/webhooks.md); never logged, shown once.
    secret: str = Field(max_length=64)
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    cursor: int = Field(default=0)


class WebhookDeliveryRow(SQLModel, table=True):
    """One event for one endpoint: pending until delivered (2xx) or failed (out of attempts).
    The event is a tournament's (``event_id``) or a club's (``club_event_id``), as its
    endpoint's owner is: exactly one is set."""

    __tablename__ = "webhook_delivery"
    __table_args__ = (
        # Also the indexes of "the oldest pending delivery of an endpoint" (delivery order).
        UniqueConstraint(
            "endpoint_id", "event_id", name="uq_webhook_delivery_endpoint_id_event_id"
        ),
        UniqueConstraint(
            "endpoint_id", "club_event_id", name="uq_webhook_delivery_endpoint_id_club_event_id"
        ),
        Index("ix_webhook_delivery_status_next_attempt_at", "status", "next_attempt_at"),
        CheckConstraint("(event_id IS NULL) <> (club_event_id IS NULL)", name="one_event"),
    )

    id: int | None = Field(default=None, primary_key=True)
    endpoint_id: int = Field(foreign_key="webhook_endpoint.id", ondelete="CASCADE")
    event_id: int | None = Field(default=None, foreign_key="event.id", ondelete="CASCADE")
    club_event_id: int | None = Field(default=None, foreign_key="club_event.id", ondelete="CASCADE")
    status: str = Field(max_length=16)
    attempts: int = Field(default=0)
    next_attempt_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    # A worker sending it holds it until then; a crashed worker's claim simply runs out.
    claimed_until: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    last_error: str | None = Field(default=None, max_length=500)
    last_status_code: int | None = None
    delivered_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class CreationCountRow(SQLModel, table=True):
    """Tournaments created by one client address (hashed) in one minute: the create quota.

    Rows of past minutes are deleted as new ones come; the address is kept only as a hash.
    """

    __tablename__ = "creation_count"
    __table_args__ = (Index("ix_creation_count_minute", "minute"),)

    client: str = Field(primary_key=True, max_length=64)
    minute: int = Field(primary_key=True, sa_type=BigInteger)
    """Minutes since the Unix epoch."""
    count: int


class ClubRow(SQLModel, table=True):
    """A club: the home of its tournaments and of its player register."""

    __tablename__ = "club"

    id: str = Field(primary_key=True, max_length=32)
    name: str = Field(max_length=120)
    version: int = Field(default=1)
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    updated_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    # the club rating (app.services.ratings): elo or glicko2, and Elo's K factor
    rating_system: str = Field(
        default="elo", max_length=8, sa_column_kwargs={"server_default": "elo"}
    )
    elo_k: int = Field(default=20, sa_column_kwargs={"server_default": "20"})


class ClubKeyRow(SQLModel, table=True):
    """A club key: organizer of every tournament of the club, and the only way into its register
    and keys. Only its hash is kept; a revoked key keeps its row (the audit trail names it)."""

    __tablename__ = "club_key"
    __table_args__ = (UniqueConstraint("token_hash"), Index("ix_club_key_club_id", "club_id"))

    id: int | None = Field(default=None, primary_key=True)
    club_id: str = Field(max_length=32, foreign_key="club.id", ondelete="CASCADE")
    label: str | None = Field(default=None, max_length=80)
    token_hash: str = Field(max_length=64)
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    revoked_at: datetime | None = Field(
        default=None, sa_column=Column(DateTime(timezone=True), nullable=True)
    )


class ClubAuditRow(SQLModel, table=True):
    """The club's audit trail: every club-level write (keys, register), who, what and when."""

    __tablename__ = "club_audit_entry"
    __table_args__ = (Index("ix_club_audit_entry_club_id_id", "club_id", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    club_id: str = Field(max_length=32, foreign_key="club.id", ondelete="CASCADE")
    at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    actor: str = Field(max_length=24)
    action: str = Field(max_length=40)
    detail: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))


class ClubPlayerRow(SQLModel, table=True):
    """An entry of a club's player register: one person, under a name and its aliases.

    ``name_key`` is the folded name (``app.domain.register.fold_name``), the list's order;
    ``search_key`` every folded name of the entry, one per line, which ``?q=`` searches.
    """

    __tablename__ = "club_player"
    __table_args__ = (Index("ix_club_player_club_id_name_key_id", "club_id", "name_key", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    club_id: str = Field(max_length=32, foreign_key="club.id", ondelete="CASCADE")
    name: str = Field(max_length=80)
    aliases: list[str] = Field(sa_column=Column(JSON, nullable=False))
    name_key: str = Field(max_length=320)
    search_key: str = Field(sa_column=Column(Text, nullable=False))
    rating: int | None = None
    title: str | None = Field(default=None, max_length=3)
    fide_id: int | None = Field(default=None, sa_type=BigInteger)
    team: str | None = Field(default=None, max_length=40)
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class ClubEventRow(SQLModel, table=True):
    """A club's outbox (``app.services.club_events``): ``seq`` counts from 1 per club without
    gaps, allocated under the club row lock; the unique constraint is the index of "events
    after seq n"."""

    __tablename__ = "club_event"
    __table_args__ = (UniqueConstraint("club_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    club_id: str = Field(max_length=32, foreign_key="club.id", ondelete="CASCADE")
    seq: int
    type: str = Field(max_length=40)
    data: dict[str, Any] = Field(sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class ClubRatingPeriodRow(SQLModel, table=True):
    """A finished tournament of the club, rated: ``seq`` is its place in the club's rating
    order (finish order, 1, 2, …). One row per tournament (the unique constraint): a tournament
    is rated once; a recompute replays the periods in ``seq`` order."""

    __tablename__ = "club_rating_period"
    __table_args__ = (
        UniqueConstraint("tournament_id"),
        UniqueConstraint("club_id", "seq"),
    )

    id: int | None = Field(default=None, primary_key=True)
    club_id: str = Field(max_length=32, foreign_key="club.id", ondelete="CASCADE")
    tournament_id: str = Field(max_length=32, foreign_key="tournament.id", ondelete="CASCADE")
    seq: int
    rated_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))
    # the SHA-256 of its rated games as rated: a write that changes them rates the club again
    games_digest: str = Field(max_length=64)


class ClubRatingRow(SQLModel, table=True):
    """A register entry's club rating now: the list (``GET …/ratings``) reads these rows.
    ``deviation`` and ``volatility`` are Glicko-2's (null under Elo)."""

    __tablename__ = "club_rating"
    __table_args__ = (
        Index("ix_club_rating_club_id_rating_id", "club_id", "rating", "club_player_id"),
    )

    club_player_id: int = Field(primary_key=True, foreign_key="club_player.id", ondelete="CASCADE")
    club_id: str = Field(max_length=32, foreign_key="club.id", ondelete="CASCADE")
    rating: float
    deviation: float | None = None
    volatility: float | None = None
    games: int
    last_change: float
    last_tournament_id: str = Field(max_length=32)


class ClubRatingHistoryRow(SQLModel, table=True):
    """A register entry's rating after one rated tournament (a period it played in): its
    rating before and after, its games, score (half-points) and performance there.
    ``deviation`` and ``volatility`` are Glicko-2's after it (null under Elo): with the rating,
    the state a club is rated again from (``app.services.rating_replay``)."""

    __tablename__ = "club_rating_history"
    __table_args__ = (
        Index("ix_club_rating_history_club_player_id_period_id", "club_player_id", "period_id"),
    )

    period_id: int = Field(
        primary_key=True, foreign_key="club_rating_period.id", ondelete="CASCADE"
    )
    club_player_id: int = Field(primary_key=True, foreign_key="club_player.id", ondelete="CASCADE")
    club_id: str = Field(max_length=32, foreign_key="club.id", ondelete="CASCADE")
    rating_before: float
    rating: float
    deviation: float | None = None
    volatility: float | None = None
    games: int
    score_halves: int
    performance: float


class SeasonRow(SQLModel, table=True):
    """A club's season: the evenings (tournaments whose ``season_id`` is this) summed up by one
    scoring rule (``app.domain.seasons``). ``place_points``: the points of places 1, 2, …
    (``places`` only); ``best``: count each player's best N evenings (null: all)."""

    __tablename__ = "season"
    __table_args__ = (Index("ix_season_club_id_id", "club_id", "id"),)

    id: int | None = Field(default=None, primary_key=True)
    club_id: str = Field(max_length=32, foreign_key="club.id", ondelete="CASCADE")
    name: str = Field(max_length=120)
    scoring: str = Field(max_length=16)
    place_points: list[int] = Field(sa_column=Column(JSON, nullable=False))
    best: int | None = None
    version: int = Field(default=1)
    created_at: datetime = Field(sa_column=Column(DateTime(timezone=True), nullable=False))


class EveningPlacingRow(SQLModel, table=True):
    """A finished club tournament's final ranking, kept for the season tables
    (``app.services.evenings``): written when it finishes (again at any later change), gone if
    it is no longer finished. Keyed by the tournament's player, so a register merge (which moves
    ``player.club_player_id``) reads through."""

    __tablename__ = "evening_placing"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "player_number"],
            ["player.tournament_id", "player.number"],
            ondelete="CASCADE",
        ),
    )

    tournament_id: str = Field(
        primary_key=True, max_length=32, foreign_key="tournament.id", ondelete="CASCADE"
    )
    player_number: int = Field(primary_key=True)
    place: int
    # Swiss points in half-points; rounds with a result or a bye
    points: int
    matches: int


class EveningGameRow(SQLModel, table=True):
    """A finished club tournament's games between two players, summed (forfeits left out), from
    ``player_number``'s side in half-points: what head to head reads in a season table."""

    __tablename__ = "evening_game"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "player_number"],
            ["player.tournament_id", "player.number"],
            ondelete="CASCADE",
        ),
        ForeignKeyConstraint(
            ["tournament_id", "opponent_number"],
            ["player.tournament_id", "player.number"],
            ondelete="CASCADE",
        ),
    )

    tournament_id: str = Field(
        primary_key=True, max_length=32, foreign_key="tournament.id", ondelete="CASCADE"
    )
    player_number: int = Field(primary_key=True)
    opponent_number: int = Field(primary_key=True)
    score: int
