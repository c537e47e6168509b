"""What the systems' explanations share: the fallback round's steps, and the placements of a
round put in board order (``explanation``'s types, issue 22 "Why this pairing")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from app.domain.explanation import FALLBACK, Placement, RoundExplanation, Step
from app.domain.pairing.base import Entrant, RoundPairing
from app.domain.types import PlayerId


def fallback_explanation(
    system: str,
    order: Sequence[Entrant],
    pairing: RoundPairing,
    *,
    ref: str,
    bye_steps: tuple[Step, ...],
) -> RoundExplanation:
    """The marked fallback (no rematch-free round exists; ``ref``: the system's rule for it):
    the players two by two following the order, each board with the fact ``rematch`` (1 when
    the two have met before)."""
    rank = {e.id: i + 1 for i, e in enumerate(order)}
    repeated = {frozenset((p.higher, p.lower)) for p in pairing.rematch_pairs}
    met = tuple(pid for p in pairing.rematch_pairs for pid in (p.higher, p.lower))
    boards = {
        (pair.higher, pair.lower): (
            Step(
                FALLBACK,
                ref,
                (pair.higher, pair.lower),
                (
                    ("rank", rank[pair.higher]),
                    ("opponent_rank", rank[pair.lower]),
                    ("rematch", int(frozenset((pair.higher, pair.lower)) in repeated)),
                ),
            ),
        )
        for pair in pairing.pairs
    }
    return RoundExplanation(
        system=system,
        round_steps=(Step(FALLBACK, ref, met, (("rematches", len(repeated)),)),),
        placements=placements(pairing, boards, bye_steps),
    )


def placements(
    pairing: RoundPairing,
    boards: Mapping[tuple[PlayerId, PlayerId], tuple[Step, ...]],
    bye_steps: tuple[Step, ...],
) -> tuple[Placement, ...]:
    """One placement per pair of ``pairing`` (board = its index + 1), then the bye's."""
    placed = [
        Placement(board, (pair.higher, pair.lower), boards[pair.higher, pair.lower])
        for board, pair in enumerate(pairing.pairs, start=1)
    ]
    if pairing.bye is not None:
        placed.append(Placement(None, (pairing.bye,), bye_steps))
    return tuple(placed)
