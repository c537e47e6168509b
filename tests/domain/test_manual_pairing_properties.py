"""Pairing by hand on random small tournaments of every system (``docs/rules.md``, "Pairing by
hand"):

- a round the system generated, sent back by hand, breaks no rule of severity ``error`` (so it
  needs no ``accept``), unless the system itself had to repeat a pairing (a fallback round);
- the same round with two players swapped so that two of them meet again is refused without
  ``accept`` and stored with its checks when the broken rules are accepted;
- the tournament goes on after it: the next round generates, from what was really played.
"""

from __future__ import annotations

from hypothesis import event, given, reject, settings
from hypothesis import strategies as st

from app.domain.errors import NoMoreRounds, PairingImpossible
from app.domain.formats import GroupAssignment, GroupsSetting
from app.domain.manual_rounds import HandPairing, PairingRulesBroken
from app.domain.pairing_checks import Board, CheckRule, Severity
from app.domain.registration import NewPlayer
from app.domain.settings import Settings
from app.domain.tournament import Tournament
from app.domain.types import Forfeit, PairingSystem, PlayerId, PointsTable, Result, Score
from tests.domain.systems import ONE_AGAINST_ONE

CHESS = PointsTable(win=Score(2), draw=Score(1), loss=Score(0), bye=Score(2))
RESULTS = {
    0: Result(1, 0),
    1: Result(0, 0),
    2: Result(0, 1),
    3: Result(0, 0, forfeit=Forfeit.AWAY),
}


def new(system: PairingSystem, count: int, seed: int, *, grouped: bool = False) -> Tournament:
    """``grouped``: the groups variant (``nearest`` and ``lim``, from 4 players a group)."""
    dutch = system is PairingSystem.DUTCH
    grouped = grouped and not dutch and count >= 8
    return Tournament.create(
        Settings(
            seed=seed,
            pairing=system,
            points=CHESS if dutch else PointsTable.default(),
            groups=GroupsSetting(GroupAssignment.DRAW) if grouped else None,
        ),
        [NewPlayer(f"P{i}", 2400 - 10 * i) for i in range(1, count + 1)],
    )


def play(t: Tournament, number: int, outcomes: list[int]) -> None:
    for i, match in enumerate(t.round_matches(number)):
        t.record_result(match.id, RESULTS[outcomes[(i + number) % len(outcomes)]])


def boards_of(t: Tournament, number: int) -> tuple[Board, ...]:
    return tuple(Board(m.home, m.away) for m in t.round_matches(number))


def with_a_rematch(t: Tournament, number: int) -> tuple[Board, ...] | None:
    """Round ``number``'s boards with two players who played a game earlier (a forfeit is no
    meeting for ``dutch``) put together again, their opponents paired with each other; ``None``
    if no two such players sit on different boards."""
    boards = list(boards_of(t, number))
    seat = {p: i for i, b in enumerate(boards) for p in (b.home, b.away)}
    for m in sorted(t.matches.values(), key=lambda m: m.id):
        if m.round is None or m.round >= number or m.result is None or m.result.forfeit:
            continue
        a, b = m.home, m.away
        if a not in seat or b not in seat or seat[a] == seat[b]:
            continue
        first, second = boards[seat[a]], boards[seat[b]]
        c = first.away if first.home == a else first.home
        d = second.away if second.home == b else second.home
        rest = [x for i, x in enumerate(boards) if i not in (seat[a], seat[b])]
        return (Board(a, b), Board(c, d), *rest)
    return None


@settings(max_examples=80, deadline=None)
@given(
    system=st.sampled_from(ONE_AGAINST_ONE),
    count=st.integers(4, 12),
    seed=st.integers(0, 10**6),
    played=st.integers(1, 3),
    outcomes=st.lists(st.integers(0, 3), min_size=1, max_size=8),
    grouped=st.booleans(),
)
def test_a_generated_round_sent_back_breaks_nothing_a_rematch_needs_accept_and_play_goes_on(
    system: PairingSystem, count: int, seed: int, played: int, outcomes: list[int], grouped: bool
) -> None:
    t = new(system, count, seed, grouped=grouped)
    try:
        for _ in range(played):
            number = t.generate_round().number
            play(t, number, outcomes)
        generated = t.generate_round()
    except (NoMoreRounds, PairingImpossible):
        reject()  # a field too small for that many rounds: nothing to pair by hand
    number = generated.number
    # A fallback round repeats pairings: sent back, it needs those accepted, and nothing else.
    fallback = frozenset({CheckRule.REMATCH}) if generated.rematch_pairs else frozenset()
    event("a fallback round" if fallback else "a round without rematch")
    same = HandPairing(boards_of(t, number), generated.byes)
    if fallback:
        try:
            t.repair_by_hand(number, same)
        except PairingRulesBroken as refused:
            assert refused.refused == (CheckRule.REMATCH,)
        else:
            raise AssertionError("a fallback round's rematches were not refused")

    # Sent back as it is: no error but the fallback's rematches, so no other accept needed.
    repaired = t.repair_by_hand(number, HandPairing(same.boards, same.byes, fallback))
    errors = [c for c in repaired.checks if c.severity is Severity.ERROR]
    assert {c.rule for c in errors} == set(fallback)
    assert boards_of(t, number) == same.boards and repaired.byes == generated.byes

    # Two players who met put together again: refused, then accepted.
    again = with_a_rematch(t, number)
    event("a rematch made by hand" if again is not None else "no two players to bring together")
    if again is not None:
        try:
            t.repair_by_hand(number, HandPairing(again, generated.byes))
        except PairingRulesBroken as refused:
            assert CheckRule.REMATCH in refused.refused
            accepted = frozenset(refused.refused)
        else:
            raise AssertionError("a rematch was not refused")
        stored = t.repair_by_hand(number, HandPairing(again, generated.byes, accepted))
        assert stored.manual and CheckRule.REMATCH in {c.rule for c in stored.checks}
        assert again[0] in boards_of(t, number)
        pair = {again[0].home, again[0].away}
        assert any({p.higher, p.lower} == pair for p in stored.rematch_pairs)

    # The tournament goes on from what was played.
    play(t, number, outcomes)
    try:
        following = t.generate_round()
    except NoMoreRounds:
        event("the last round was paired by hand")
        return
    except PairingImpossible as impossible:
        # Only the Dutch rules may find no pairing (C1-C3 are absolute); they name who.
        assert system is PairingSystem.DUTCH and impossible.players
        return
    active = {pid for pid, p in t.players.items() if not p.withdrawn}
    placed = [p for b in boards_of(t, following.number) for p in (b.home, b.away)]
    assert sorted([*placed, *following.byes]) == sorted(active)
    assert not following.manual
    event("the next round generated")


@settings(max_examples=30, deadline=None)
@given(
    system=st.sampled_from(ONE_AGAINST_ONE),
    count=st.integers(4, 10),
    seed=st.integers(0, 10**6),
    outcomes=st.lists(st.integers(0, 3), min_size=1, max_size=8),
)
def test_a_round_made_by_hand_from_the_generated_one_is_the_same_round(
    system: PairingSystem, count: int, seed: int, outcomes: list[int]
) -> None:
    """``POST …/rounds`` with the boards the system would give: the same boards, byes and
    colours (home as given), and nothing to accept."""
    t = new(system, count, seed)
    number = t.generate_round().number
    play(t, number, outcomes)
    twin = new(system, count, seed)
    number = twin.generate_round().number
    play(twin, number, outcomes)
    try:
        generated = t.generate_round()
    except (NoMoreRounds, PairingImpossible):
        reject()
    fallback = frozenset({CheckRule.REMATCH}) if generated.rematch_pairs else frozenset()
    made = twin.pair_by_hand(HandPairing(boards_of(t, generated.number), generated.byes, fallback))
    assert boards_of(twin, made.number) == boards_of(t, generated.number)
    assert made.byes == generated.byes
    assert {c.rule for c in made.checks if c.severity is Severity.ERROR} == set(fallback)
    assert all(m.manual for m in twin.round_matches(made.number))
    assert [PlayerId(p) for p in made.byes] == list(generated.byes)
