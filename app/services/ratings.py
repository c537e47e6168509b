"""A club's ratings, written: each register entry's rating, updated when a tournament of the
club finishes, rated again from the first rated tournament a change touches when the register,
the settings or a rated tournament change (the reads are ``app.services.rating_reads``).

A finished tournament is a rating period (``app.domain.ratings.club``) of the register entries
its players point to (``player.club_player_id``). It is rated in the transaction of the write
that finishes it, under the tournament's lock and then the club's, once: its
``club_rating_period`` row (unique per tournament) keeps its place in the club's order and a
digest of the games rated. A later write that leaves it finished with other rated games (a
corrected final) rates the club again from it on (``rating_replay.replay``); a deleted one, a
merge of two entries, a changed register rating from the first period they touch; new settings
from the first. So the ratings are always those of the games as they stand, as rating the club
from nothing would give them.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.orm import Session

from app.domain.ratings.club import Change, Rating, System, rate_tournament, start
from app.domain.ratings.games import Game, rated_games, renamed
from app.domain.tournament import Tournament
from app.domain.types import PlayerId, Status
from app.services import bulk, club_events, rating_replay, storage
from app.services.rating_replay import CP, CR, CRH, CRP, HISTORY, RATING, C, digest, system_of
from app.services.storage import P, now

__all__ = ["CP", "CR", "CRH", "CRP", "digest", "system_of"]


# -- rating a tournament ----------------------------------------------------------------------


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
    club is rated again from it on. Rated with these games: nothing (so a write repeated, or
    one that changes no game, rates nothing twice, and takes no club lock)."""
    if tournament is None:
        tournament = storage.load(session, tournament_id)
    if tournament.status is not Status.FINISHED:
        return
    played = rated_games(tournament.matches.values())
    if _rated_digest(session, tournament_id) == digest(_renamed(session, tournament_id, played)):
        return
    club_events.lock_club(session, club_id)
    # again under the club's lock: a merge that held it may have moved the players' entries
    games = _renamed(session, tournament_id, played)
    found = digest(games)
    period = session.execute(
        select(CRP.c.seq, CRP.c.games_digest).where(CRP.c.tournament_id == tournament_id)
    ).first()
    if period is not None:
        if period[1] != found:
            rating_replay.replay(session, club_id, since=int(period[0]))
        return
    _rate_new(session, club_id, tournament_id, games, found)


def _rated_digest(session: Session, tournament_id: str) -> str | None:
    return session.execute(
        select(CRP.c.games_digest).where(CRP.c.tournament_id == tournament_id)
    ).scalar()


def _renamed(
    session: Session, tournament_id: str, played: Sequence[Game[PlayerId]]
) -> list[Game[int]]:
    return renamed(played, _entries_of(session, tournament_id))


def _rate_new(
    session: Session, club_id: str, tournament_id: str, games: list[Game[int]], found: str
) -> None:
    """The tournament becomes the club's next period, rated from the ratings now."""
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
    bulk.insert_rows(
        session,
        CRH,
        HISTORY,
        [rating_replay.history_row(club_id, period_id, p, c) for p, c in changes.items()],
    )
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


def _write_ratings(
    session: Session,
    club_id: str,
    tournament_id: str,
    changes: dict[int, Change],
    totals: dict[int, int],
) -> None:
    bulk.insert_rows(
        session,
        CR,
        RATING,
        [
            (
                p,
                club_id,
                c.after.rating,
                c.after.deviation,
                c.after.volatility,
                totals[p] + c.games,
                c.after.rating - c.before.rating,
                tournament_id,
            )
            for p, c in changes.items()
        ],
    )


# -- rating again -----------------------------------------------------------------------------


def recompute(session: Session, club_id: str) -> None:
    """Rate the club again from nothing: its rated tournaments in their order, each from its
    games as they stand and the register as it is. The caller holds the club row lock."""
    rating_replay.replay(session, club_id)


def tournament_removed(session: Session, club_id: str | None, tournament_id: str) -> None:
    """Before a club's tournament is deleted (under its lock): if it was rated, the club is
    rated again without it, from its place on."""
    if club_id is None:
        return
    rated = session.execute(
        select(CRP.c.id, CRP.c.seq).where(CRP.c.tournament_id == tournament_id)
    ).first()
    if rated is None:
        return
    club_events.lock_club(session, club_id)
    rating_replay.replay(session, club_id, since=int(rated[1]), dropped=int(rated[0]))


def entries_merged(session: Session, club_id: str, first: int | None) -> None:
    """After a merge (under the club's lock): rate the club again from ``first``, the first
    period either entry played (``first_played``), as if the two had always been one."""
    if first is not None:
        rating_replay.replay(session, club_id, since=first)


def first_played(session: Session, club_id: str, entries: Sequence[int]) -> int | None:
    """The place of the first rated tournament one of ``entries`` played a rated game in."""
    return rating_replay.first_period_of(session, club_id, entries)


def register_rating_changed(session: Session, club_id: str, entry_id: int) -> None:
    """After an entry's register rating changed (under the club's lock): its club rating
    starts from it, so the club is rated again from the entry's first rated tournament."""
    entries_merged(session, club_id, first_played(session, club_id, [entry_id]))


def change_system(session: Session, club_id: str, system: System) -> bool:
    """Set the club's rating settings (the caller holds the club lock); if they changed, rate
    the club again under them, from its first rated tournament. Whether they changed."""
    if system == system_of(session, club_id):
        return False
    session.execute(
        update(C).where(C.c.id == club_id).values(rating_system=system.kind.value, elo_k=system.k)
    )
    recompute(session, club_id)
    return True
