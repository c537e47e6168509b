"""Random group tournaments with withdrawals at any time: the final phase stays a bracket.

``tournament.md``, "Groups variant": crossed semifinals A1 v B2 and B1 v A2, where A1 and A2 are
the first two *active* players of group A (the group winner at home); "Final ranking": places
1–4 from the finals, then everybody else, withdrawn players included.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.errors import NotEnoughQualifiers, TooFewPlayers
from app.domain.formats import GroupAssignment, GroupsSetting
from app.domain.matches import Match
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import (
    DecidedBy,
    Forfeit,
    GroupName,
    PairingSystem,
    PlayerId,
    Result,
    Side,
    Stage,
)
from tests.domain.evening import players

SWISS_RESULTS = [Result(2, 1), Result(0, 3), Result(1, 1), Result(0, 0, forfeit=Forfeit.AWAY)]
FINAL_RESULTS = [
    Result(2, 1),
    Result(0, 1),
    Result(1, 1, winner=Side.HOME, decided_by=DecidedBy.PENALTIES),
    Result(2, 2, winner=Side.AWAY),
    Result(0, 0, forfeit=Forfeit.HOME),
]


def withdraw_some(t: Tournament, data: st.DataObject, *, at_most: int) -> None:
    """Withdraw up to ``at_most`` active players chosen by hypothesis."""
    for _ in range(data.draw(st.integers(0, at_most), label="withdrawals")):
        active = sorted(pid for pid, p in t.players.items() if not p.withdrawn)
        if len(active) <= 1:
            return
        t.withdraw_player(data.draw(st.sampled_from(active), label="withdrawn"))


def first_two_active(t: Tournament, group: str) -> list[PlayerId]:
    rows = t.standings(GroupName(group))
    return [r.player_id for r in rows if not t.players[r.player_id].withdrawn][:2]


def check_stage(matches: list[Match]) -> None:
    """Nobody plays himself, and nobody plays twice in one stage."""
    seen = [pid for m in matches for pid in (m.home, m.away)]
    assert all(m.home != m.away for m in matches)
    assert len(seen) == len(set(seen))


@settings(max_examples=150, deadline=None)
@given(
    count=st.integers(4, 16),
    seed=st.integers(0, 10**6),
    assignment=st.sampled_from(
        [GroupAssignment.DRAW, GroupAssignment.SEEDED, GroupAssignment.POTS]
    ),
    pairing=st.sampled_from([PairingSystem.NEAREST, PairingSystem.LIM]),  # dutch has no groups
    data=st.data(),
)
def test_group_brackets_hold_under_withdrawals_at_any_time(
    count: int, seed: int, assignment: GroupAssignment, pairing: PairingSystem, data: st.DataObject
) -> None:
    t = Tournament.create(
        Settings(seed=seed, pairing=pairing, groups=GroupsSetting(assignment)), players(count)
    )
    rounds = data.draw(st.integers(1, t.format.swiss_rounds), label="Swiss rounds played")
    while t.current_round < rounds:
        try:
            number = t.generate_round().number
        except TooFewPlayers:
            break
        for m in t.round_matches(number):
            t.record_result(m.id, data.draw(st.sampled_from(SWISS_RESULTS)))
        withdraw_some(t, data, at_most=2)
    if t.current_round == 0:
        return
    a, b = first_two_active(t, "A"), first_two_active(t, "B")
    try:
        t.start_final_phase()
    except NotEnoughQualifiers:
        assert min(len(a), len(b)) < 2
        return
    semis = [m for m in t.final_matches() if m.stage is Stage.SEMIFINAL]
    check_stage(semis)
    assert {(m.home, m.away) for m in semis} == {(a[0], b[1]), (b[0], a[1])}
    withdraw_some(t, data, at_most=2)  # a qualifier may withdraw: his match is still decided
    while t.final_ranking() is None:
        for m in t.final_matches():
            if m.result is None:
                t.record_result(m.id, data.draw(st.sampled_from(FINAL_RESULTS)))
        check_stage([m for m in t.final_matches() if m.stage is not Stage.SEMIFINAL])
    ranking = t.final_ranking()
    assert ranking is not None
    assert sorted(ranking) == sorted(t.players)
    final = next(m for m in t.final_matches() if m.stage is Stage.FINAL)
    assert ranking[:2] == [final.winner, final.away if final.winner == final.home else final.home]
