"""Clubs from the client: the key kept once made (and once rotated), a club tournament from
the register, search and merge, and the refusals of a key that is not the club's."""

from __future__ import annotations

import pytest

from svizzera_client import Client, Forbidden, PlayerCreate, ResultWrite
from svizzera_client.models import (
    ClubCreate,
    ClubPlayerCreate,
    ClubPlayerUpdate,
    ClubTournamentCreate,
    RegisterPlayer,
    TokenCreate,
)


def test_a_club_runs_its_evening_from_the_register(client: Client) -> None:
    club = client.create_club(ClubCreate(name="Circolo", key_label="President"))
    assert client.club_keys[club.id] == club.key.key
    muller = client.add_club_player(club.id, ClubPlayerCreate(name="Müller", aliases=["Mueller"]))
    body = ClubTournamentCreate(
        name="Friday",
        players=[RegisterPlayer(club_player_id=muller.id), *[PlayerCreate(name=n) for n in "ABC"]],
        seed=7,
    )
    made = client.create_club_tournament(club.id, body)
    assert made.club_id == club.id
    assert [p.name for p in made.players] == ["Müller", "A", "B", "C"]
    assert client.tokens[made.id] == made.organizer_token
    client.tokens[made.id] = club.key.key  # the club's key is an organizer of it too
    round_one = client.generate_round(made.id)
    for match in round_one.matches:
        client.record_result(made.id, match.id, ResultWrite(home=1, away=0))
    assert [p.name for p in client.search_club_players(club.id, q="MULLER").items] == ["Müller"]
    assert [t.id for t in client.list_club_tournaments(club.id, status="swiss").items] == [made.id]

    a = client.search_club_players(club.id, q="a").items[0]
    client.update_club_player(club.id, a.id, ClubPlayerUpdate(aliases=["Alfa"]))
    other = client.add_club_player(club.id, ClubPlayerCreate(name="Alfa Romeo"))
    merged = client.merge_club_players(club.id, a.id, other.id)
    assert merged.aliases == ["Alfa", "Alfa Romeo"]
    assert [t.tournament_id for t in client.get_club_player(club.id, a.id).tournaments] == [made.id]

    second = client.create_club_key(club.id, TokenCreate(label="Treasurer"))
    rotated = client.rotate_club_key(club.id, club.key.id)
    assert client.club_keys[club.id] == rotated.key != club.key.key
    client.revoke_club_key(club.id, second.id)
    assert [k.revoked_at is None for k in client.list_club_keys(club.id)] == [True, False]
    actions = [e.action for e in client.list_club_audit(club.id).items]
    assert actions[-3:] == ["club-keys-create", "club-keys-rotate", "club-keys-revoke"]
    assert client.get_club(club.id).name == "Circolo"


def test_another_clubs_key_is_refused(client: Client) -> None:
    ours = client.create_club(ClubCreate(name="Ours"))
    theirs = client.create_club(ClubCreate(name="Theirs"))
    client.club_keys[theirs.id] = client.club_keys[ours.id]
    with pytest.raises(Forbidden) as refused:
        client.search_club_players(theirs.id)
    assert refused.value.code == "forbidden"
