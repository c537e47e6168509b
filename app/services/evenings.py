"""The finished evenings of a club, kept for its season tables: each finished club tournament's
final ranking (place, Swiss points, rounds) and its games between two players, per tournament
player.

``refresh`` runs at the end of every saved tournament write (``commands.conclude``, under the
tournament's lock): a club tournament that is finished gets its rows written again (finishing,
or a result changed after), one that is not has none. So a season table reads a few indexed rows
per evening instead of rebuilding every tournament, and because the rows name the tournament's
player, not the register entry, a register merge (which moves ``player.club_player_id``) reads
through them at once.
"""

from __future__ import annotations

from collections import Counter

from sqlalchemy import delete, exists, insert, select
from sqlalchemy.orm import Session

from app.domain.ratings.games import rated_games
from app.domain.tournament import Tournament
from app.domain.types import Status
from app.models import EveningGameRow, EveningPlacingRow
from app.services import club_events, storage

EP = EveningPlacingRow.__table__  # type: ignore[attr-defined]
EG = EveningGameRow.__table__  # type: ignore[attr-defined]
T = storage.T
P = storage.P


def refresh(session: Session, tournament_id: str) -> int | None:
    """Write the tournament's evening again if it is a finished club tournament, drop it if it
    is not finished; the tournament's season when its table may have changed (it has one, and
    the evening was or is finished), else ``None``: then ``season.updated`` is in the club's
    outbox (``season_updated``)."""
    row = session.execute(
        select(T.c.club_id, T.c.status, T.c.season_id).where(T.c.id == tournament_id)
    ).first()
    if row is None or row.club_id is None:
        return None
    had = session.execute(select(exists().where(EP.c.tournament_id == tournament_id))).scalar()
    if had:
        session.execute(delete(EG).where(EG.c.tournament_id == tournament_id))
        session.execute(delete(EP).where(EP.c.tournament_id == tournament_id))
    finished = row.status == Status.FINISHED.value
    if finished:
        _write(session, tournament_id, storage.load(session, tournament_id))
    if row.season_id is None or not (had or finished):
        return None
    season_updated(session, row.club_id, row.season_id, tournament_id)
    return int(row.season_id)


def season_updated(session: Session, club_id: str, season_id: int, tournament_id: str) -> None:
    """``season.updated`` in the club's outbox: which season's table changed, by which
    tournament. Under the club's row lock, taken after the tournament's (as ratings do)."""
    club_events.lock_club(session, club_id)
    club_events.emit(
        session,
        club_id,
        [
            (
                club_events.SEASON_UPDATED,
                {"season_id": season_id, "tournament_id": tournament_id, "reason": "tournament"},
            )
        ],
    )


def seasons_played_by(session: Session, club_player_id: int) -> list[int]:
    """The seasons with a finished evening the register entry played (their tables name it)."""
    played = (
        select(T.c.season_id)
        .join(P, P.c.tournament_id == T.c.id)
        .where(
            P.c.club_player_id == club_player_id,
            T.c.season_id.is_not(None),
            exists().where(EP.c.tournament_id == T.c.id),
        )
        .distinct()
    )
    return sorted(int(s) for s in session.execute(played).scalars())


def entries_merged(session: Session, club_id: str, seasons: list[int], kept_id: int) -> None:
    """``season.updated`` for each season whose table a register merge changed (under the
    club's lock, which the merge holds): ``tournament_id`` null, ``club_player_id`` the entry
    kept."""
    club_events.emit(
        session,
        club_id,
        [
            (
                club_events.SEASON_UPDATED,
                {
                    "season_id": season,
                    "tournament_id": None,
                    "reason": "merge",
                    "club_player_id": kept_id,
                },
            )
            for season in seasons
        ],
    )


def _write(session: Session, tournament_id: str, tournament: Tournament) -> None:
    ranking = tournament.final_ranking() or []
    rows = {r.player_id: r for r in tournament.standings()}
    placings = [
        {
            "tournament_id": tournament_id,
            "player_number": int(player),
            "place": place,
            "points": int(rows[player].points),
            "matches": rows[player].played + rows[player].byes,
        }
        for place, player in enumerate(ranking, start=1)
    ]
    if placings:
        session.execute(insert(EP), placings)
    scored: Counter[tuple[int, int]] = Counter()
    for game in rated_games(tournament.matches.values()):
        scored[(int(game.player), int(game.opponent))] += int(game.score * 2)
    games = [
        {"tournament_id": tournament_id, "player_number": p, "opponent_number": o, "score": s}
        for (p, o), s in sorted(scored.items())
    ]
    if games:
        session.execute(insert(EG), games)
