"""Doubles in the domain: a team entry is one entry to every rule, so naming its two players
changes no pairing, no standing and no final ranking; the members are checked as names are."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.errors import DuplicateName, InvalidSettings, RepeatedName
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import Entry, PairingSystem, PlayerId, Result
from tests.domain.evening import play_swiss
from tests.domain.systems import ONE_AGAINST_ONE


def entries(count: int, *, teams: bool) -> list[NewPlayer]:
    return [NewPlayer(f"T{i}", members=(f"A{i}", f"B{i}") if teams else ()) for i in range(count)]


@settings(deadline=None)
@given(
    count=st.integers(min_value=2, max_value=14),
    system=st.sampled_from(ONE_AGAINST_ONE),  # DYP draws its teams: no `entry: team`
    seed=st.integers(min_value=0, max_value=2**20),
)
def test_naming_the_two_players_changes_nothing_the_rules_decide(
    count: int, system: PairingSystem, seed: int
) -> None:
    def played(teams: bool) -> Tournament:
        entry = Entry.TEAM if teams else Entry.PLAYER
        t = Tournament.create(
            Settings(seed=seed, pairing=system, entry=entry), entries(count, teams=teams)
        )
        play_swiss(t, lambda m: Result(3, 1) if (m.home + m.away + seed) % 3 else Result(1, 1))
        return t

    single, doubles = played(False), played(True)
    assert [r.number for r in doubles.rounds] == [r.number for r in single.rounds]
    assert [(m.home, m.away, m.result) for m in doubles.matches.values()] == [
        (m.home, m.away, m.result) for m in single.matches.values()
    ]
    assert doubles.standings() == single.standings()
    assert all(p.members == (f"A{p.id - 1}", f"B{p.id - 1}") for p in doubles.players.values())


def test_members_are_checked_as_names() -> None:
    team = Settings(seed=1, entry=Entry.TEAM)
    with pytest.raises(InvalidSettings, match="names its 2 players"):
        Tournament.create(team, [NewPlayer("X", members=("Ada",)), *entries(1, teams=True)])
    with pytest.raises(InvalidSettings, match="single players"):
        Tournament.create(Settings(seed=1), entries(2, teams=True))
    with pytest.raises(RepeatedName, match="'A0' already plays in the team 'T0'"):
        Tournament.create(team, [*entries(2, teams=True), NewPlayer("Y", members=("a0", "Z"))])
    t = Tournament.create(team, entries(3, teams=True))
    with pytest.raises(DuplicateName):
        t.set_members(PlayerId(2), ("B0", "New"))
    t.set_members(PlayerId(2), ("  Carla   Rossi ", "B1"))  # keeps its own B1
    assert t.players[PlayerId(2)].members == ("Carla Rossi", "B1")
