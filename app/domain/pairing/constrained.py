"""Forbidden pairs above the systems (``docs/rules.md``, "Forbidden pairings"), written once
for all three.

A hard pair is the system's to keep apart (``interface.Constraints``). A soft pair is avoided
unless the round cannot be paired otherwise, and then broken as low in the standings as
possible: the soft pairs are ranked by their better player's place in the standings (then the
other player's), and the round is paired with every soft pair treated as hard. If the system
cannot pair that round, the soft pairs are taken from the top down, each kept (as hard)
when the round can still be paired with it and every pair kept before it, else let go. The
pairs let go are the ones the round breaks: every one of them meets, since a round that kept it
apart would have let it be kept. So the pairs kept are, among the sets of soft pairs the round
can keep, the one that keeps the best-placed pair it can, then the next, and so on.

A round that broke soft pairs says so: ``SOFT_PAIRS_BROKEN`` ends the path of each group where
one of them meets.

"Cannot pair" is the system's own verdict: ``dutch`` raises ``PairingImpossible`` (no pairing
keeps C1–C3); ``nearest`` and ``lim`` raise it when the pairs leave no round their fallback
could take. Each try runs within the round's ``Deadline``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from app.domain.deadline import Deadline
from app.domain.errors import PairingImpossible
from app.domain.forbidden import PairConstraint, PairKind
from app.domain.matches import GeneratedRound
from app.domain.pairing.interface import NO_CONSTRAINTS, Constraints, PairRound, RoundRequest
from app.domain.types import PlayerId

__all__ = ["SOFT_PAIRS_BROKEN", "pair_constrained", "soft_order"]

SOFT_PAIRS_BROKEN = "soft_pairs_broken"
"""The last rule of a group's path when a soft forbidden pair meets in it."""


def pair_constrained(
    pair_round: PairRound, request: RoundRequest, constraints: Constraints, *, deadline: Deadline
) -> GeneratedRound:
    """The round by ``pair_round`` keeping the hard pairs apart and the soft ones as far as the
    round allows (module docstring). When the hard pairs leave no round, ``PairingImpossible``
    names them, unless the round cannot be paired without them either (then the system's
    own refusal)."""
    hard = constraints.hard
    place = {row.player_id: i for i, row in enumerate(request.standings)}
    soft = soft_order(constraints.soft, place)

    def attempt(kept: Sequence[PairConstraint]) -> GeneratedRound | None:
        hardened = tuple(replace(c, kind=PairKind.HARD) for c in kept)
        try:
            return pair_round(request, Constraints((*hard, *hardened)), deadline=deadline)
        except PairingImpossible:
            return None

    if soft:
        found = attempt(soft)
        if found is not None:
            return found
        kept: list[PairConstraint] = []
        best: GeneratedRound | None = None
        for pair in soft if len(soft) > 1 else ():
            tried = attempt([*kept, pair])
            if tried is not None:
                kept.append(pair)
                best = tried
        if best is not None:
            return _marked(best, [pair for pair in soft if pair not in kept])
    try:
        return _marked(pair_round(request, Constraints(hard), deadline=deadline), soft)
    except PairingImpossible as refused:
        if not refused.forbidden:
            raise
        try:
            pair_round(request, NO_CONSTRAINTS, deadline=deadline)
        except PairingImpossible as plain:
            raise plain from refused
        raise


def _marked(generated: GeneratedRound, broken: Sequence[PairConstraint]) -> GeneratedRound:
    """``generated`` with ``SOFT_PAIRS_BROKEN`` added to the path of every group in which a
    pair of ``broken`` meets."""
    apart = {pair.players for pair in broken}
    groups = {
        m.group for m in generated.matches if (min(m.home, m.away), max(m.home, m.away)) in apart
    }
    if not groups:
        return generated
    swiss_round = generated.swiss_round
    paths = tuple(
        (group, (*path, SOFT_PAIRS_BROKEN)) if group in groups else (group, path)
        for group, path in swiss_round.paths
    )
    return replace(generated, swiss_round=replace(swiss_round, paths=paths))


def soft_order(
    soft: Sequence[PairConstraint], place: Mapping[PlayerId, int]
) -> list[PairConstraint]:
    """The soft pairs from the best-placed down: by the better player's place in the standings,
    then the other's, then the ids (a player missing from ``place`` counts as last)."""
    last = len(place)

    def key(pair: PairConstraint) -> tuple[int, int, PlayerId, PlayerId]:
        a, b = sorted((place.get(pair.first, last), place.get(pair.second, last)))
        return (a, b, pair.first, pair.second)

    return sorted(soft, key=key)
