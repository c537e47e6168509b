"""The registry of pairing systems: every system is registered under its own name, and what it
declares matches what the rest of the domain assumes of it."""

from __future__ import annotations

from typing import Any

import pytest

from app.domain.deadline import NO_DEADLINE
from app.domain.errors import InvalidSettings
from app.domain.formats import FormatPreset, GroupAssignment, GroupsSetting
from app.domain.pairing.interface import Colours
from app.domain.pairing.registry import SYSTEMS
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import PairingSystem


def test_every_system_is_registered_under_its_name() -> None:
    assert set(SYSTEMS) == set(PairingSystem)
    for name, system in SYSTEMS.items():
        assert system.name is name


def settings_of(name: PairingSystem, **options: Any) -> Settings:
    """The system's settings; DYP's with its format (the two go together)."""
    dyp = SYSTEMS[name].capabilities.drawn_partners
    preset = FormatPreset.DYP if dyp else FormatPreset.STANDARD
    return Settings(seed=5, pairing=name, format=preset, **options)


@pytest.mark.parametrize("name", list(PairingSystem))
def test_a_system_without_groups_refuses_them(name: PairingSystem) -> None:
    """``groups`` is declared as the settings check it: a system without it refuses groups."""
    settings = settings_of(name, groups=GroupsSetting(GroupAssignment.DRAW))
    if SYSTEMS[name].capabilities.groups:
        settings.check()
    else:
        with pytest.raises(InvalidSettings):
            settings.check()


@pytest.mark.parametrize("name", list(PairingSystem))
def test_the_declared_colour_rule_is_the_one_rounds_are_seated_by(name: PairingSystem) -> None:
    t = Tournament.create(settings_of(name), [NewPlayer(f"P{i}") for i in range(6)])
    t.generate_round(deadline=NO_DEADLINE)
    rules = {m.colour_rule.value for m in t.matches.values()}
    if SYSTEMS[name].capabilities.colours is Colours.FIDE:
        assert rules == {"fide"}
    elif SYSTEMS[name].capabilities.colours is Colours.RANK:
        assert rules == {"rank"}
    else:
        assert "fide" not in rules and "rank" not in rules


@pytest.mark.parametrize("name", list(PairingSystem))
def test_pairing_numbers_follow_the_declared_numbering(name: PairingSystem) -> None:
    """``fide_numbers``: start numbers by rating, title and name (C.04.2 Art. 2) even when a
    player has no rating; otherwise registration order unless everybody has a rating."""
    listed = [
        NewPlayer("Zed", rating=1500),
        NewPlayer("Ann"),
        NewPlayer("Bob", rating=1800),
        NewPlayer("Cid", rating=1600),
    ]
    t = Tournament.create(settings_of(name), listed)
    order = [p.name for p in sorted(t.players.values(), key=lambda p: p.start_number)]
    if SYSTEMS[name].capabilities.fide_numbers:
        assert order == ["Bob", "Cid", "Zed", "Ann"]
    else:
        assert order == ["Zed", "Ann", "Bob", "Cid"]


@pytest.mark.parametrize("name", list(PairingSystem))
def test_drawn_partners_go_with_the_format_dyp_only(name: PairingSystem) -> None:
    """``drawn_partners``: the system and the format ``dyp`` go together, both ways."""
    if SYSTEMS[name].capabilities.drawn_partners:
        settings_of(name).check()
        with pytest.raises(InvalidSettings, match="go together"):
            Settings(seed=5, pairing=name).check()
    else:
        with pytest.raises(InvalidSettings, match="go together"):
            Settings(seed=5, pairing=name, format=FormatPreset.DYP).check()
