"""The transportation between kinds: best worth, and prices that prove it (``dutch_kinds``)."""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from app.domain.pairing.dutch.kinds import feasible, kinds_of, transport

Worth = dict[tuple[int, int], int]


def _best(left: list[int], right: list[int], worth: Worth, cap: int | None) -> int:
    """Every way to send players along the arcs, the best total (tiny instances only)."""
    arcs = [pair for pair, w in worth.items() if w > 0]
    best = 0
    for amounts in product(*(range(min(left[i], right[j]) + 1) for i, j in arcs)):
        sent_left = [0] * len(left)
        sent_right = [0] * len(right)
        for (i, j), a in zip(arcs, amounts, strict=True):
            sent_left[i] += a
            sent_right[j] += a
        if any(s > c for s, c in zip(sent_left, left, strict=True)):
            continue
        if any(s > c for s, c in zip(sent_right, right, strict=True)):
            continue
        if cap is not None and sum(amounts) > cap:
            continue
        best = max(best, sum(worth[arc] * a for arc, a in zip(arcs, amounts, strict=True)))
    return best


@st.composite
def problems(draw: st.DrawFn) -> tuple[list[int], list[int], Worth, int | None]:
    left = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
    right = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
    worth = {
        (i, j): draw(st.sampled_from([0, 1, 2, 5, (1 << 40) + 3]))
        for i in range(len(left))
        for j in range(len(right))
    }
    cap = draw(st.one_of(st.none(), st.integers(0, 4)))
    return left, right, worth, cap


@settings(max_examples=300, deadline=None)
@given(problems())
def test_the_plan_is_best_and_its_prices_prove_it(
    problem: tuple[list[int], list[int], Worth, int | None],
) -> None:
    left, right, worth, cap = problem
    plan = transport(left, right, worth, cap=cap)
    assert plan.value == _best(left, right, worth, cap)
    # Prices are feasible everywhere and tight where players are sent.
    for (i, j), w in worth.items():
        if w > 0 and left[i] and right[j]:
            assert plan.left[i] + plan.right[j] + plan.cap >= w
    for (i, j), amount in plan.flow.items():
        assert amount > 0 and plan.tight(i, j, worth[(i, j)])
    # The dual's total is the plan's worth (no gap).
    dual = sum(p * c for p, c in zip(plan.left, left, strict=True))
    dual += sum(p * c for p, c in zip(plan.right, right, strict=True))
    dual += plan.cap * (sum(left) if cap is None else cap)
    assert dual == plan.value


def test_kinds_are_numbered_in_order_of_appearance() -> None:
    kinds, counts = kinds_of([10, 11, 12, 13], lambda v: v % 2)
    assert kinds == [0, 1, 0, 1] and counts == [2, 2]


def test_a_flow_with_lower_bounds() -> None:
    # Two left kinds of 2 players, one right kind of 3: only 3 can be sent.
    assert feasible([2, 2], [3], [(0, 0), (1, 0)], [True, False], [True])
    assert not feasible([2, 2], [3], [(0, 0), (1, 0)], [True, True], [False])
    assert feasible([2, 2], [3], [(0, 0), (1, 0)], [False, False], [False], total=3)
    assert not feasible([2, 2], [3], [(0, 0)], [False, False], [True])
