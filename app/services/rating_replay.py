"""Rating a club again from one of its rating periods on (``replay``): what a corrected or
deleted rated tournament, a register merge, a changed register rating or new rating settings
run, in their own transaction, under the club's row lock.

The periods before the first one a change touches keep their history; the state each entry
enters that period with is its history's last row before it (rating, Glicko-2's deviation and
volatility, games so far), and an entry without one starts as a full replay would start it
(``app.domain.ratings.club.start``). So correcting the club's last evening replays one period,
and any replay ends where rating the club from nothing would (a property test holds them
equal). The work is a few reads (the games of the periods replayed in one query, the state
before them in another), the replay in memory, and bulk writes: history rows by the driver's
bulk path (PostgreSQL ``COPY``), one delete per table, only the digests that changed.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlalchemy import bindparam, delete, func, select, union, update
from sqlalchemy.orm import Session, aliased

from app.domain.ratings.club import Change, Rating, RatingSystem, System, rate_tournament, start
from app.domain.ratings.games import Game, game_pair, halves
from app.domain.types import Forfeit, Result, Side
from app.models import (
    ClubPlayerRow,
    ClubRatingHistoryRow,
    ClubRatingPeriodRow,
    ClubRatingRow,
    ClubRow,
)
from app.services import bulk, club_events
from app.services.storage import RES, M, P

C = ClubRow.__table__  # type: ignore[attr-defined]
CP = ClubPlayerRow.__table__  # type: ignore[attr-defined]
CR = ClubRatingRow.__table__  # type: ignore[attr-defined]
CRP = ClubRatingPeriodRow.__table__  # type: ignore[attr-defined]
CRH = ClubRatingHistoryRow.__table__  # type: ignore[attr-defined]

HISTORY = (
    "period_id",
    "club_player_id",
    "club_id",
    "rating_before",
    "rating",
    "deviation",
    "volatility",
    "games",
    "score_halves",
    "performance",
)
RATING = (
    "club_player_id",
    "club_id",
    "rating",
    "deviation",
    "volatility",
    "games",
    "last_change",
    "last_tournament_id",
)
SCORE_TEXT = {2: "1", 1: "1/2", 0: "0"}
"""A score as ``str`` writes its ``Fraction`` (the digests' text), without the ``Fraction``."""
CHUNK = 2000
"""Entries per ``IN (…)`` list: well under SQLite's and PostgreSQL's parameter limits."""


@dataclass(frozen=True, slots=True)
class Period:
    """A rated tournament of the club: its row, its tournament, its place, its games' digest."""

    id: int
    tournament_id: str
    seq: int
    digest: str


@dataclass(frozen=True, slots=True)
class Standing:
    """An entry's rating after a period: what the club's rating list shows, and the state the
    next period starts from."""

    rating: Rating
    games: int
    last_change: float
    last_tournament_id: str


def system_of(session: Session, club_id: str) -> System:
    row = session.execute(select(C.c.rating_system, C.c.elo_k).where(C.c.id == club_id)).one()
    return System(RatingSystem(row[0]), row[1])


def digest(games: Sequence[Game[int]]) -> str:
    """The games a period rated, as a SHA-256 (who played whom, with what score, in order)."""
    text = json.dumps([[g.player, g.opponent, SCORE_TEXT[halves(g.score)]] for g in games])
    return hashlib.sha256(text.encode()).hexdigest()


def first_period_of(session: Session, club_id: str, entries: Sequence[int]) -> int | None:
    """The place (``seq``) of the club's first rated tournament in which one of ``entries``
    played a rated game; ``None``: none did."""
    found = session.execute(
        select(func.min(CRP.c.seq))
        .join(CRH, CRH.c.period_id == CRP.c.id)
        .where(CRP.c.club_id == club_id, CRH.c.club_player_id.in_(list(entries)))
    ).scalar()
    return None if found is None else int(found)


def replay(
    session: Session,
    club_id: str,
    *,
    since: int | None = None,
    dropped: int | None = None,
    reason: str = "recomputed",
) -> None:
    """Rate the club again from its period at place ``since`` on (``None``: from its first),
    each from its games as they stand and the register as it is, after deleting period
    ``dropped`` (a tournament deleted; its place is ``since``). The caller holds the club row
    lock. Ends with a ``rating.updated`` event: the tournaments replayed and the entries whose
    ratings were written again."""
    system = system_of(session, club_id)
    start_at = since if since is not None else _first_seq(session, club_id)
    if start_at is None:  # nothing rated
        return
    before: dict[int, Standing] = {}
    if since is not None:  # read before the deletes: the entries of period ``dropped`` too
        found = _standings_before(session, club_id, start_at, system)
        if found is None:  # a Glicko-2 history from before volatilities were kept
            replay(session, club_id, dropped=dropped, reason=reason)
            return
        before = found
    old: set[int] = set()  # entries whose ratings may change (a full replay: all are written)
    if since is not None:
        old = set(session.execute(select(_entries_since(club_id, start_at).subquery())).scalars())
    session.execute(delete(CRH).where(CRH.c.period_id.in_(_periods_since(club_id, start_at))))
    if dropped is not None:
        session.execute(delete(CRP).where(CRP.c.id == dropped))
    periods, games = period_games(session, club_id, start_at)
    played = {g.player for gs in games.values() for g in gs}
    affected = old | played
    registered = _register_ratings(session, club_id, played - before.keys())
    after, history = _rate(system, club_id, periods, games, before, registered)
    if since is None:
        session.execute(delete(CR).where(CR.c.club_id == club_id))
    else:
        for chunk in _chunks(sorted(affected)):
            session.execute(delete(CR).where(CR.c.club_player_id.in_(chunk)))
    bulk.insert_rows(session, CRH, HISTORY, history)
    standings = {p: before[p] for p in affected if p in before} | after
    bulk.insert_rows(
        session,
        CR,
        RATING,
        [
            (
                p,
                club_id,
                s.rating.rating,
                s.rating.deviation,
                s.rating.volatility,
                s.games,
                s.last_change,
                s.last_tournament_id,
            )
            for p, s in sorted(standings.items())
        ],
    )
    _write_digests(session, periods, games)
    club_events.emit(
        session,
        club_id,
        [
            (
                club_events.RATING_UPDATED,
                {"reason": reason, "tournaments": len(periods), "players": len(affected)},
            )
        ],
    )


def _first_seq(session: Session, club_id: str) -> int | None:
    found = session.execute(select(func.min(CRP.c.seq)).where(CRP.c.club_id == club_id)).scalar()
    return None if found is None else int(found)


def _periods_since(club_id: str, seq: int) -> Any:
    return select(CRP.c.id).where(CRP.c.club_id == club_id, CRP.c.seq >= seq)


def _entries_since(club_id: str, seq: int) -> Any:
    """The entries with history in the periods from ``seq`` on, or players in them now."""
    return union(
        select(CRH.c.club_player_id).where(CRH.c.period_id.in_(_periods_since(club_id, seq))),
        select(P.c.club_player_id)
        .join(CRP, CRP.c.tournament_id == P.c.tournament_id)
        .where(CRP.c.club_id == club_id, CRP.c.seq >= seq, P.c.club_player_id.is_not(None)),
    )


def period_games(
    session: Session, club_id: str, since: int
) -> tuple[list[Period], dict[str, list[Game[int]]]]:
    """The club's rated tournaments from place ``since`` on, in order, and each one's rated
    games as they now stand, by register entry (as ``rated_games`` and ``renamed`` give them):
    one query for all of them. The domain scores each kind of result once (``game_pair``):
    tens of thousands of results are a handful of kinds."""
    periods = [
        Period(r[0], r[1], r[2], r[3])
        for r in session.execute(
            select(CRP.c.id, CRP.c.tournament_id, CRP.c.seq, CRP.c.games_digest)
            .where(CRP.c.club_id == club_id, CRP.c.seq >= since)
            .order_by(CRP.c.seq)
        )
    ]
    home, away = aliased(P), aliased(P)
    rows = session.execute(
        select(
            M.c.tournament_id,
            home.c.club_player_id,
            away.c.club_player_id,
            RES.c.home_goals,
            RES.c.away_goals,
            RES.c.winner,
            RES.c.forfeit,
        )
        .join(CRP, CRP.c.tournament_id == M.c.tournament_id)
        .join(RES, (RES.c.tournament_id == M.c.tournament_id) & (RES.c.match_number == M.c.number))
        .join(home, (home.c.tournament_id == M.c.tournament_id) & (home.c.number == M.c.home))
        .join(away, (away.c.tournament_id == M.c.tournament_id) & (away.c.number == M.c.away))
        .where(CRP.c.club_id == club_id, CRP.c.seq >= since, M.c.home_partner.is_(None))
        .order_by(M.c.tournament_id, M.c.number)
    )
    games: dict[str, list[Game[int]]] = {p.tournament_id: [] for p in periods}
    scores: dict[tuple[Any, ...], tuple[Fraction, ...]] = {}  # a few kinds of result
    for tid, h, a, *result in rows:
        if h is None or a is None:
            continue
        key = tuple(result)
        if key not in scores:
            scores[key] = tuple(g.score for g in game_pair(0, 1, _result(*result)))
        if found := scores[key]:
            played = games[tid]
            played.append(Game(int(h), int(a), found[0]))
            played.append(Game(int(a), int(h), found[1]))
    return periods, games


def _result(home: int, away: int, winner: str | None, forfeit: str | None) -> Result:
    return Result(
        home, away, Side(winner) if winner else None, None, Forfeit(forfeit) if forfeit else None
    )


def _standings_before(
    session: Session, club_id: str, seq: int, system: System
) -> dict[int, Standing] | None:
    """Each entry that plays (or played) from place ``seq`` on and has history before it: its
    last history row before it, and its games up to it. ``None`` under Glicko-2 when such a
    row has no volatility (written before they were kept)."""
    ranked = (
        select(
            CRH.c.club_player_id,
            CRH.c.rating,
            CRH.c.deviation,
            CRH.c.volatility,
            CRH.c.rating_before,
            CRP.c.tournament_id,
            func.sum(CRH.c.games).over(partition_by=CRH.c.club_player_id).label("total"),
            func.row_number()
            .over(partition_by=CRH.c.club_player_id, order_by=CRP.c.seq.desc())
            .label("rank"),
        )
        .join(CRP, CRP.c.id == CRH.c.period_id)
        .where(
            CRP.c.club_id == club_id,
            CRP.c.seq < seq,
            CRH.c.club_player_id.in_(_entries_since(club_id, seq)),
        )
        .subquery()
    )
    rows = session.execute(select(ranked).where(ranked.c.rank == 1))
    standings: dict[int, Standing] = {}
    glicko = system.kind is RatingSystem.GLICKO2
    for player, rating, deviation, volatility, rating_before, tid, total, _ in rows:
        if glicko and volatility is None:
            return None
        standings[player] = Standing(
            Rating(rating, deviation, volatility), int(total), rating - rating_before, tid
        )
    return standings


def _register_ratings(session: Session, club_id: str, players: set[int]) -> dict[int, float]:
    """The register's rating of each of ``players`` that has one: where its club rating
    starts (the whole club's in one read when most of it is asked)."""
    query = select(CP.c.id, CP.c.rating).where(CP.c.club_id == club_id, CP.c.rating.is_not(None))
    if len(players) <= CHUNK:
        query = query.where(CP.c.id.in_(sorted(players)))
    return {r[0]: float(r[1]) for r in session.execute(query) if r[0] in players}


def _rate(
    system: System,
    club_id: str,
    periods: Sequence[Period],
    games: dict[str, list[Game[int]]],
    before: dict[int, Standing],
    registered: dict[int, float],
) -> tuple[dict[int, Standing], list[tuple[Any, ...]]]:
    """The replay: each period's changes from the ratings before it; every entry's standing
    after the last period it played, and the history rows (``HISTORY``'s order)."""
    current = {p: s.rating for p, s in before.items()}
    totals = {p: s.games for p, s in before.items()}
    after: dict[int, Standing] = {}
    history: list[tuple[Any, ...]] = []

    def first(player: int) -> Rating:
        return start(system, registered.get(player))

    for period in periods:
        changes = rate_tournament(system, current, games[period.tournament_id], first=first)
        for player, change in changes.items():
            current[player] = change.after
            totals[player] = totals.get(player, 0) + change.games
            after[player] = _standing(change, totals[player], period.tournament_id)
            history.append(history_row(club_id, period.id, player, change))
    return after, history


def _standing(change: Change, games: int, tournament_id: str) -> Standing:
    return Standing(change.after, games, change.after.rating - change.before.rating, tournament_id)


def history_row(club_id: str, period_id: int, player: int, change: Change) -> tuple[Any, ...]:
    return (
        period_id,
        player,
        club_id,
        change.before.rating,
        change.after.rating,
        change.after.deviation,
        change.after.volatility,
        change.games,
        change.score_halves,
        change.performance,
    )


def _write_digests(
    session: Session, periods: Sequence[Period], games: dict[str, list[Game[int]]]
) -> None:
    """Each replayed period's digest of the games it rated, where it changed: one statement."""
    changed = [
        {"period": p.id, "found": found}
        for p in periods
        if (found := digest(games[p.tournament_id])) != p.digest
    ]
    if changed:
        session.connection().execute(
            update(CRP)
            .where(CRP.c.id == bindparam("period"))
            .values(games_digest=bindparam("found")),
            changed,
        )


def _chunks(values: list[int], size: int = CHUNK) -> Iterable[list[int]]:
    for i in range(0, len(values), size):
        yield values[i : i + size]
