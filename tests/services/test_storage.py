"""Storage: the domain state survives a save and a load unchanged; refusals write nothing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import Engine, event, func, select
from sqlalchemy.orm import Session
from sqlalchemy.sql.compiler import SQLCompiler

from app.db import make_engine
from app.domain.errors import RoundIncomplete
from app.domain.registration import NewPlayer
from app.domain.tournament import Tournament
from app.domain.types import (
    ByeKind,
    DecidedBy,
    FideTitle,
    Forfeit,
    PlayerId,
    Result,
    RoundNumber,
    Side,
)
from app.services import commands, rounds, storage, tournaments
from app.services.access import Write


@pytest.fixture
def engine(db_url: str) -> Iterator[Engine]:
    engine = make_engine(db_url)
    yield engine
    engine.dispose()


def new_tournament(engine: Engine, players: int = 7, **fields: object) -> str:
    with Session(engine) as session, session.begin():
        created = tournaments.create(
            session,
            name="Stored",
            players=[{"name": f"P{i}", "rating": 1000 + i} for i in range(players)],
            fields={"seed": 3, **fields},
        )
    return created.id


def state(t: storage.Tournament) -> tuple[object, ...]:
    return (t.settings, t.players, t.rounds, t.matches, t.final_phase_started)


def test_a_played_tournament_loads_back_as_it_was_saved(engine: Engine) -> None:
    tid = new_tournament(engine, 7, points={"win": 1, "draw": 0.5, "loss": 0, "bye": 1})
    for _ in range(3):
        with Session(engine) as session, session.begin():
            _, swiss_round = rounds.generate(session, Write(tid))
        with Session(engine) as session, session.begin():

            def play(t: storage.Tournament, number: int = swiss_round.number) -> None:
                for i, m in enumerate(t.round_matches(number)):
                    t.record_result(
                        m.id, Result(i % 3, 1) if i else Result(0, 0, forfeit=Forfeit.HOME)
                    )

            commands.run(session, Write(tid), "test", play)
    with Session(engine) as session, session.begin():
        commands.run(session, Write(tid), "test", lambda t: t.withdraw_player(PlayerId(2)))
        saved, _ = commands.run(session, Write(tid), "test", lambda t: t.start_final_phase())
    with Session(engine) as session, session.begin():
        semi = storage.load(session, tid).final_matches()[0]
        commands.run(
            session,
            Write(tid),
            "test",
            lambda t: t.record_result(semi.id, Result(2, 2, Side.AWAY, DecidedBy.PENALTIES)),
        )
    with Session(engine) as session:
        loaded = storage.load(session, tid)
    assert loaded.settings.points.draw == 1
    assert loaded.players[PlayerId(2)].withdrawn_after == 3
    assert loaded.matches[semi.id].result == Result(2, 2, Side.AWAY, DecidedBy.PENALTIES)
    assert [len(r.byes) for r in loaded.rounds] == [1, 1, 1]
    assert loaded.standings() == saved.standings()
    assert state(loaded)[1:3] == state(saved)[1:3]


def test_a_refused_command_writes_nothing(engine: Engine) -> None:
    tid = new_tournament(engine, 6)
    with Session(engine) as session, session.begin():
        rounds.generate(session, Write(tid))
    counts = select(func.count()).select_from(storage.M)
    with Session(engine) as session:
        before = (session.execute(counts).scalar_one(), storage.load(session, tid).current_round)
    with Session(engine) as session, pytest.raises(RoundIncomplete), session.begin():
        rounds.generate(session, Write(tid))
    with Session(engine) as session:
        after = (session.execute(counts).scalar_one(), storage.load(session, tid).current_round)
        version = session.execute(
            select(storage.T.c.version).where(storage.T.c.id == tid)
        ).scalar_one()
    assert after == before == (3, 1)
    assert version == 2


def test_settings_round_trip_with_groups(engine: Engine) -> None:
    manual = [["P0", "P1", "P2"], ["P3", "P4", "P5"]]
    tid = new_tournament(
        engine, 6, groups={"count": 2, "assignment": "manual", "manual": manual}, tiebreak="goals"
    )
    with Session(engine) as session:
        loaded = storage.load(session, tid)
    assert loaded.settings.groups is not None
    assert loaded.settings.groups.manual == (("P0", "P1", "P2"), ("P3", "P4", "P5"))
    assert loaded.settings.seed == 3
    assert [p.group for p in sorted(loaded.players.values(), key=lambda p: p.id)] == list("AAABBB")


def test_a_write_saved_while_the_rows_are_read_makes_the_load_read_them_again(
    engine: Engine,
) -> None:
    tid = new_tournament(engine, 6)
    interleaved: list[str] = []

    def save_a_round_first(_conn: object, _cursor: object, statement: str, *_: object) -> None:
        # Just before the load reads the matches (its players and rounds read already), another
        # transaction saves round 1: the matches would show a round the rounds did not.
        if re.search(r'FROM "?match\b', statement) and not interleaved:
            interleaved.append(statement)
            with Session(engine) as other, other.begin():
                rounds.generate(other, Write(tid))

    event.listen(engine, "before_cursor_execute", save_a_round_first)
    try:
        with Session(engine) as session:
            version, loaded = storage.load_versioned(session, tid)
    finally:
        event.remove(engine, "before_cursor_execute", save_a_round_first)
    assert interleaved
    assert version == 2
    assert [r.number for r in loaded.rounds] == [1]
    assert len(loaded.matches) == 3


def parameter_sets(engine: Engine, players: int) -> list[str]:
    """The statements whose parameters SQLAlchemy processed (its compiled statement's
    ``construct_params``, once a row in an ``executemany``) while a tournament of ``players``
    was created."""
    processed: list[str] = []
    construct = SQLCompiler.construct_params

    def counting(self: SQLCompiler, *args: Any, **kwargs: Any) -> Any:
        processed.append(" ".join(str(self.statement).split()[:3]))
        return construct(self, *args, **kwargs)

    SQLCompiler.construct_params = counting  # type: ignore[method-assign]
    try:
        new_tournament(engine, players)
    finally:
        SQLCompiler.construct_params = construct  # type: ignore[method-assign]
    return processed


def test_new_players_go_to_the_driver_in_one_batch_whatever_their_number(engine: Engine) -> None:
    """A creation or a TRF file of 4,096 players: the rows go to the driver as they are
    (``bulk.insert_rows``), not through SQLAlchemy's parameter processing a row each."""
    processed = parameter_sets(engine, 700)
    assert "INSERT INTO player" not in processed
    assert len(processed) < 20, processed


def test_every_field_of_a_new_player_loads_back(engine: Engine) -> None:
    """The bulk path writes what the update path does: titles, FIDE ids, teams, groups, the
    check-in, the byes asked for (and none: the same stored value either way)."""
    players = [
        NewPlayer("Carlsen", 2830, FideTitle.GM, 1503014, "Norway"),
        NewPlayer("Kid", None, None, None, None),
        NewPlayer("Woman", 2300, FideTitle.WIM, 9_999_999_999, "Ovest"),
        NewPlayer("Amateur", 1500, None, None, None),
    ]
    made = Tournament.create(tournaments.settings_from({"pairing": "dutch", "seed": 5}), players)
    made.request_bye(PlayerId(2), RoundNumber(2), ByeKind.HALF_POINT)
    made.request_bye(PlayerId(2), RoundNumber(3), ByeKind.ZERO_POINT)
    made.check_in(PlayerId(3), True)
    with Session(engine) as session, session.begin():
        tid = tournaments.insert_new(session, name="Bulk", tournament=made).id
    with Session(engine) as session, session.begin():
        assert storage.load(session, tid).players == made.players
        commands.run(
            session, Write(tid), "test", lambda t: t.cancel_bye(PlayerId(2), RoundNumber(2))
        )
        commands.run(
            session, Write(tid), "test", lambda t: t.cancel_bye(PlayerId(2), RoundNumber(3))
        )
    with Session(engine) as session:
        never = storage.P.c.requested_byes.is_(None)
        query = select(storage.P.c.number, never).where(storage.P.c.tournament_id == tid)
        stored = {number: never for number, never in session.execute(query)}
    assert stored[2] == stored[1] == stored[4]  # taken back (an update) as never asked (bulk)
