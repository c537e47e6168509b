"""Storage of a chess tournament: titles, FIDE ids, requested byes, the initial colour and the
allowed byes survive a save and a load; a ``dutch`` tournament gets the chess points table."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from sqlalchemy import Engine
from sqlalchemy.orm import Session

from app.db import make_engine
from app.domain.explanation import NO_EXPLANATION
from app.domain.pairing.dutch.types import CHESS_POINTS
from app.domain.types import (
    ByeKind,
    FideTitle,
    InitialColour,
    PairingSystem,
    PlayerId,
    PointsTable,
    RequestedBye,
    Result,
    RoundNumber,
)
from app.services import commands, rounds, storage, tournaments
from app.services.access import Write


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    engine = make_engine(db_url)
    yield engine
    engine.dispose()


def test_a_chess_tournament_loads_back_as_it_was_saved(engine: Engine) -> None:
    with Session(engine) as session, session.begin():
        created = tournaments.create(
            session,
            name="Club",
            players=[
                {"name": "Carlsen", "rating": 2830, "title": "GM", "fide_id": 1503014},
                {"name": "Amateur", "rating": 1500},
                {"name": "Kid"},
                {"name": "Woman", "rating": 2300, "title": "WIM", "fide_id": 9_999_999_999},
            ],
            fields={
                "pairing": "dutch",
                "seed": 5,
                "initial_colour": "black",
                "allowed_byes": ["half_point"],
            },
        )
    tid = created.id
    with Session(engine) as session, session.begin():
        commands.run(
            session,
            Write(tid),
            "test",
            lambda t: t.request_bye(PlayerId(2), RoundNumber(2), ByeKind.HALF_POINT),
        )
        _, first = rounds.generate(session, Write(tid))
    with Session(engine) as session, session.begin():

        def play(t: storage.Tournament) -> None:
            for m in t.round_matches(1):
                t.record_result(m.id, Result(1, 0))

        saved, _ = commands.run(session, Write(tid), "test", play)
    with Session(engine) as session, session.begin():
        loaded = storage.load(session, tid)
        explanation = storage.load_explanation(session, tid, 1)
    assert loaded.settings == saved.settings
    assert loaded.players == saved.players
    # A round loads without its explanation, which is read on its own (and comes back whole).
    assert loaded.rounds == saved.rounds == [replace(first, explanation=NO_EXPLANATION)]
    assert explanation == first.explanation and explanation.system == "dutch"
    assert loaded.matches == saved.matches
    settings = loaded.settings
    assert settings.pairing is PairingSystem.DUTCH
    assert settings.points == CHESS_POINTS
    assert settings.initial_colour is InitialColour.BLACK
    assert settings.allowed_byes == frozenset({ByeKind.HALF_POINT})
    carlsen = loaded.players[PlayerId(1)]
    assert (carlsen.title, carlsen.fide_id, carlsen.start_number) == (FideTitle.GM, 1503014, 1)
    assert loaded.players[PlayerId(4)].fide_id == 9_999_999_999
    assert loaded.players[PlayerId(3)].title is None
    assert loaded.players[PlayerId(2)].requested_byes == (
        RequestedBye(RoundNumber(2), ByeKind.HALF_POINT),
    )
    assert all(m.home != m.away for m in loaded.matches.values())


def test_the_other_systems_keep_their_points_table(engine: Engine) -> None:
    with Session(engine) as session, session.begin():
        created = tournaments.create(
            session, name="Bar", players=[{"name": "A"}, {"name": "B"}], fields={"seed": 1}
        )
        loaded = storage.load(session, created.id)
    assert loaded.settings.points == PointsTable.default()
    assert loaded.settings.initial_colour is None and loaded.settings.allowed_byes is None
