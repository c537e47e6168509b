"""A club's tournaments: made with a club key, their players from the register."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.domain.types import Entry, Player
from app.errors import NotAClubTournament, RepeatedClubPlayer, TeamEntriesInClub
from app.services import access, clubs, players, rating_reads, register, seasons, tournaments


def create(
    session: Session,
    write: clubs.ClubWrite,
    *,
    name: str,
    players: list[dict[str, Any]],
    fields: dict[str, Any],
    seed_by_club_rating: bool = False,
) -> tournaments.Created:
    """A tournament of the club, with its own organizer token as any (the club's keys are its
    organizers too), in the club's season ``season_id`` if ``fields`` has one. Under the club's
    lock, so a merge cannot move an entry in between.
    Its entries are the register's players: team entries (doubles) are refused.
    ``seed_by_club_rating``: the register's players play with their club rating."""
    if fields.get("entry") == Entry.TEAM:
        raise TeamEntriesInClub(
            "a club's tournament enters the players of its register: team entries "
            '(`entry: "team"`) are for tournaments of their own (`POST /v1/tournaments`)'
        )
    version = clubs.lock(session, write)
    fields = dict(fields)
    season_id = fields.pop("season_id", None)
    if season_id is not None:
        seasons.check_room(session, write.club_id, season_id)
    entrants = register.entrants(session, write.club_id, players)
    if seed_by_club_rating:
        entrants = _with_club_ratings(session, entrants)
    created = tournaments.create(
        session,
        name=name,
        players=[e.player for e in entrants],
        fields=fields,
        club_id=write.club_id,
        season_id=season_id,
        actor=write.actor,
    )
    register.link(session, write.club_id, created.id, entrants)
    clubs.changed(
        session, write, version, "club-tournaments-create", tournament_id=created.id, name=name
    )
    return created


def _with_club_ratings(
    session: Session, entrants: list[register.Entrant]
) -> list[register.Entrant]:
    """Each entrant with a club rating gets it (rounded) as its rating; the others keep the
    rating given or the register's."""
    found = rating_reads.seeding_ratings(
        session, [e.entry_id for e in entrants if e.entry_id is not None]
    )
    return [
        register.Entrant({**e.player, "rating": found[e.entry_id]}, e.entry_id)
        if e.entry_id in found
        else e
        for e in entrants
    ]


def add_player(session: Session, write: access.Write, given: dict[str, Any]) -> Player:
    """A player entered after creation (registration or late entry): in a club's tournament,
    from the register as at creation (``register.entrants``), and linked to the entry."""
    club_id = access.read_header(session, write.tournament_id).club_id
    if club_id is None:
        if given.get("club_player_id") is not None:
            raise NotAClubTournament(
                "this tournament belongs to no club: enter the player by name (`club_player_id` "
                "takes an entry of a club's register, for a tournament of that club)"
            )
        return _add(session, write, given)
    entrant = register.entrants(session, club_id, [given])[0]
    if entrant.entry_id is not None and register.plays_in(
        session, entrant.entry_id, write.tournament_id
    ):
        raise RepeatedClubPlayer(
            f"register entry {entrant.entry_id} plays in this tournament already: a person "
            "plays a tournament once"
        )
    player = _add(session, write, entrant.player)
    register.link_player(session, club_id, write.tournament_id, int(player.id), entrant)
    return player


def _add(session: Session, write: access.Write, given: dict[str, Any]) -> Player:
    return players.add(session, write, players.new_player(given))
