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
    ClubUpdate,
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


def test_a_clubs_ratings_from_the_client(client: Client) -> None:
    """K 32: Rossi (1600) loses to Bianchi (1400): 1600 − 32 × 0.759747 = 1575.688."""
    club = client.create_club(ClubCreate(name="Rated", elo_k=32))
    assert (club.rating_system, club.elo_k) == ("elo", 32)
    rossi = client.add_club_player(club.id, ClubPlayerCreate(name="Rossi", rating=1600))
    bianchi = client.add_club_player(club.id, ClubPlayerCreate(name="Bianchi", rating=1400))
    players: list[RegisterPlayer | PlayerCreate] = [
        RegisterPlayer(club_player_id=e.id) for e in (rossi, bianchi)
    ]
    body = ClubTournamentCreate(
        name="One game", players=players, seed=7, swiss_rounds=1, final_phase="none"
    )
    made = client.create_club_tournament(club.id, body)
    match = client.generate_round(made.id).matches[0]
    home_is_rossi = match.home == 1
    client.record_result(
        made.id,
        match.id,
        ResultWrite(home=0, away=1) if home_is_rossi else ResultWrite(home=1, away=0),
    )
    page = client.list_club_ratings(club.id)
    assert [(x.name, round(x.rating, 3)) for x in page.items] == [
        ("Rossi", 1575.688),
        ("Bianchi", 1424.312),
    ]
    steps = client.get_rating_history(club.id, rossi.id).items
    assert [(s.tournament_id, s.games, s.score, s.performance) for s in steps] == [
        (made.id, 1, 0.0, 1000.0)
    ]
    events = client.list_club_events(club.id).items
    assert [(e.id, e.type, e.data["tournament_id"]) for e in events] == [
        (1, "rating.updated", made.id)
    ]
    changed = client.rename_club(club.id, ClubUpdate(rating_system="glicko2"))
    assert changed.rating_system == "glicko2"
    assert client.list_club_ratings(club.id).items[0].deviation is not None
    seeded = client.create_club_tournament(
        club.id, ClubTournamentCreate(name="Seeded", players=players, seed_by="club_rating")
    )
    ratings = {e.club_player_id: round(e.rating) for e in client.list_club_ratings(club.id).items}
    assert {p.name: p.rating for p in seeded.players} == {
        "Rossi": ratings[rossi.id],
        "Bianchi": ratings[bianchi.id],
    }
