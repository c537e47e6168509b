"""A club's ratings, written: each register entry's rating, updated when a tournament of the
club finishes, computed again from the club's rated tournaments when the register, the
settings or a rated tournament change (the reads are ``app.services.rating_reads``).

A finished tournament is a rating period (``app.domain.ratings.club``) of the register entries
its players point to (``player.club_player_id``). It is rated in the transaction of the write
that finishes it, under the tournament's lock and then the club's, once: its
``club_rating_period`` row (unique per tournament) keeps its place in the club's order and a
digest of the games rated. A later write that leaves it finished with other rated games (a
corrected final, a merge of two entries) rates the club again from its first period
(``recompute``), so the ratings are always those of the games as they stand.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import Session, aliased

from app.domain.ratings.club import Change, Rating, RatingSystem, System, rate_tournament, start
from app.domain.ratings.games import Game, game_pair, rated_games, renamed
from app.domain.tournament import Tournament
from app.domain.types import Forfeit, PlayerId, Result, Side, Status
from app.models import (
    ClubPlayerRow,
    ClubRatingHistoryRow,
    ClubRatingPeriodRow,
    ClubRatingRow,
    ClubRow,
)
from app.services import club_events, storage
from app.services.storage import RES, M, P, now

C = ClubRow.__table__  # type: ignore[attr-defined]
CP = ClubPlayerRow.__table__  # type: ignore[attr-defined]
CR = ClubRatingRow.__table__  # type: ignore[attr-defined]
CRP = ClubRatingPeriodRow.__table__  # type: ignore[attr-defined]
CRH = ClubRatingHistoryRow.__table__  # type: ignore[attr-defined]


def system_of(session: Session, club_id: str) -> System:
    row = session.execute(select(C.c.rating_system, C.c.elo_k).where(C.c.id == club_id)).one()
    return System(RatingSystem(row[0]), row[1])


# -- rating a tournament ----------------------------------------------------------------------


def digest(games: Sequence[Game[int]]) -> str:
    """The games a period rated, as a SHA-256 (who played whom, with what score, in order)."""
    text = json.dumps([[g.player, g.opponent, str(g.score)] for g in games])
    return hashlib.sha256(text.encode()).hexdigest()


def _entries_of(session: Session, tournament_id: str) -> dict[PlayerId, int]:
    rows = session.execute(
        select(P.c.number, P.c.club_player_id).where(
            P.c.tournament_id == tournament_id, P.c.club_player_id.is_not(None)
        )
    )
    return {PlayerId(r[0]): int(r[1]) for r in rows}


def rate_if_finished(
    session: Session, club_id: str, tournament_id: str, tournament: Tournament | None = None
) -> None:
    """After a write to a club's tournament (under its lock): if the tournament is finished,
    see that the club's ratings count its games as they now stand. Not rated yet: rated now,
    as the club's next period. Rated with other games (a correction after the end): the
    club is rated again from its first period. Rated with these games: nothing (so a write
    repeated, or one that changes no game, rates nothing twice)."""
    if tournament is None:
        tournament = storage.load(session, tournament_id)
    if tournament.status is not Status.FINISHED:
        return
    games = renamed(rated_games(tournament.matches.values()), _entries_of(session, tournament_id))
    found = digest(games)
    period = session.execute(
        select(CRP.c.games_digest).where(CRP.c.tournament_id == tournament_id)
    ).first()
    if period is not None and period[0] == found:
        return
    club_events.lock_club(session, club_id)
    if period is not None:
        recompute(session, club_id)
        return
    seq = (
        session.execute(
            select(func.coalesce(func.max(CRP.c.seq), 0)).where(CRP.c.club_id == club_id)
        ).scalar_one()
        + 1
    )
    period_id: int = session.execute(
        insert(CRP)
        .values(
            club_id=club_id,
            tournament_id=tournament_id,
            seq=seq,
            rated_at=now(),
            games_digest=found,
        )
        .returning(CRP.c.id)
    ).scalar_one()
    system = system_of(session, club_id)
    players = sorted({g.player for g in games})
    current = _current(session, players)
    registered = _register_ratings(session, players)
    changes = rate_tournament(
        system,
        {p: r for p, (r, _) in current.items()},
        games,
        first=lambda p: start(system, registered.get(p)),
    )
    _write_history(session, club_id, period_id, changes)
    totals = {p: current[p][1] if p in current else 0 for p in changes}
    session.execute(delete(CR).where(CR.c.club_player_id.in_(list(changes))))
    _write_ratings(session, club_id, tournament_id, changes, totals)
    club_events.emit(
        session,
        club_id,
        [
            (
                club_events.RATING_UPDATED,
                {"reason": "tournament", "tournament_id": tournament_id, "players": len(changes)},
            )
        ],
    )


def _current(session: Session, players: Sequence[int]) -> dict[int, tuple[Rating, int]]:
    rows = session.execute(
        select(CR.c.club_player_id, CR.c.rating, CR.c.deviation, CR.c.volatility, CR.c.games).where(
            CR.c.club_player_id.in_(list(players))
        )
    )
    return {r[0]: (Rating(r[1], r[2], r[3]), r[4]) for r in rows}


def _register_ratings(session: Session, players: Sequence[int]) -> dict[int, float]:
    """The register's rating of each entry that has one: where its club rating starts."""
    rows = session.execute(
        select(CP.c.id, CP.c.rating).where(CP.c.id.in_(list(players)), CP.c.rating.is_not(None))
    )
    return {r[0]: float(r[1]) for r in rows}


def _write_history(
    session: Session, club_id: str, period_id: int, changes: dict[int, Change]
) -> None:
    if changes:
        session.execute(
            insert(CRH), [_history_row(club_id, period_id, p, c) for p, c in changes.items()]
        )


def _history_row(club_id: str, period_id: int, player: int, change: Change) -> dict[str, Any]:
    return {
        "period_id": period_id,
        "club_player_id": player,
        "club_id": club_id,
        "rating_before": change.before.rating,
        "rating": change.after.rating,
        "deviation": change.after.deviation,
        "games": change.games,
        "score_halves": change.score_halves,
        "performance": change.performance,
    }


def _write_ratings(
    session: Session,
    club_id: str,
    tournament_id: str,
    changes: dict[int, Change],
    totals: dict[int, int],
) -> None:
    if not changes:
        return
    session.execute(
        insert(CR),
        [
            {
                "club_player_id": p,
                "club_id": club_id,
                "rating": c.after.rating,
                "deviation": c.after.deviation,
                "volatility": c.after.volatility,
                "games": totals[p] + c.games,
                "last_change": c.after.rating - c.before.rating,
                "last_tournament_id": tournament_id,
            }
            for p, c in changes.items()
        ],
    )


# -- recomputing ------------------------------------------------------------------------------


def _period_games(
    session: Session, club_id: str
) -> tuple[list[tuple[int, str]], dict[str, list[Game[int]]]]:
    """The club's rated tournaments in order (period id, tournament id), and each one's rated
    games as they now stand, by register entry: one query for all of them."""
    periods = [
        (r[0], r[1])
        for r in session.execute(
            select(CRP.c.id, CRP.c.tournament_id)
            .where(CRP.c.club_id == club_id)
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
        .where(CRP.c.club_id == club_id, M.c.home_partner.is_(None))  # as rated_games
        .order_by(M.c.tournament_id, M.c.number)
    )
    games: dict[str, list[Game[int]]] = {tid: [] for _, tid in periods}
    for tid, h, a, hg, ag, winner, forfeit in rows:
        if h is None or a is None:
            continue
        result = Result(
            hg, ag, Side(winner) if winner else None, None, Forfeit(forfeit) if forfeit else None
        )
        games[tid].extend(game_pair(int(h), int(a), result))
    return periods, games


def recompute(session: Session, club_id: str) -> None:
    """Rate the club again from nothing: its rated tournaments in their order, each from its
    games as they stand and the register as it is (after a merge: the two entries as one).
    The caller holds the club row lock. The work is one read of every rated game of the club
    and one bulk write of the ratings and their history."""
    system = system_of(session, club_id)
    periods, games = _period_games(session, club_id)
    session.execute(delete(CRH).where(CRH.c.club_id == club_id))
    session.execute(delete(CR).where(CR.c.club_id == club_id))
    everyone = sorted({g.player for played in games.values() for g in played})
    registered = _register_ratings(session, everyone)
    current: dict[int, Rating] = {}
    totals: dict[int, int] = {}
    last: dict[int, tuple[str, Change]] = {}
    history: list[dict[str, Any]] = []
    for period_id, tid in periods:
        played = games[tid]
        changes = rate_tournament(
            system, current, played, first=lambda p: start(system, registered.get(p))
        )
        for player, change in changes.items():
            current[player] = change.after
            totals[player] = totals.get(player, 0) + change.games
            last[player] = (tid, change)
            history.append(_history_row(club_id, period_id, player, change))
        session.execute(
            update(CRP).where(CRP.c.id == period_id).values(games_digest=digest(played))
        )
    for chunk in _chunks(history):
        session.execute(insert(CRH), chunk)
    rows = [
        {
            "club_player_id": p,
            "club_id": club_id,
            "rating": c.after.rating,
            "deviation": c.after.deviation,
            "volatility": c.after.volatility,
            "games": totals[p],
            "last_change": c.after.rating - c.before.rating,
            "last_tournament_id": tid,
        }
        for p, (tid, c) in last.items()
    ]
    for chunk in _chunks(rows):
        session.execute(insert(CR), chunk)
    club_events.emit(
        session,
        club_id,
        [
            (
                club_events.RATING_UPDATED,
                {"reason": "recomputed", "tournaments": len(periods), "players": len(last)},
            )
        ],
    )


def _chunks(rows: list[dict[str, Any]], size: int = 2000) -> Iterable[list[dict[str, Any]]]:
    for i in range(0, len(rows), size):
        yield rows[i : i + size]


def tournament_removed(session: Session, club_id: str | None, tournament_id: str) -> None:
    """Before a club's tournament is deleted (under its lock): if it was rated, the club is
    rated again without it."""
    if club_id is None:
        return
    rated = session.execute(select(CRP.c.id).where(CRP.c.tournament_id == tournament_id)).first()
    if rated is None:
        return
    club_events.lock_club(session, club_id)
    session.execute(delete(CRP).where(CRP.c.id == rated[0]))
    recompute(session, club_id)


def change_system(session: Session, club_id: str, system: System) -> bool:
    """Set the club's rating settings (the caller holds the club lock); if they changed, rate
    the club again under them. Whether they changed."""
    if system == system_of(session, club_id):
        return False
    session.execute(
        update(C).where(C.c.id == club_id).values(rating_system=system.kind.value, elo_k=system.k)
    )
    recompute(session, club_id)
    return True
