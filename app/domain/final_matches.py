"""The final-phase matches of a tournament: laid out from fixtures, and the finals re-formed
whenever a semifinal result changes (``tournament.md``, "Final phase", "Corrections")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from app.domain import final_phase as fp
from app.domain.colours import seat_by_rank
from app.domain.matches import Match, MatchChanges, MatchId
from app.domain.types import Pair, PlayerId, Stage


def matches_from(fixtures: Sequence[fp.Fixture], *, next_id: MatchId) -> list[Match]:
    """New matches for ``fixtures``, numbered from ``next_id``; the better-ranked at home."""
    new = []
    for offset, f in enumerate(fixtures):
        seat = seat_by_rank(Pair(f.home, f.away))
        new.append(
            Match(next_id + offset, f.stage, None, None, f.board, seat.home, seat.away, seat.rule)
        )
    return new


def decided(match: Match) -> fp.Decided | None:
    """Winner and loser of a final-phase match, ``None`` while it has no winner."""
    if match.result is None or match.result.winning_side is None:
        return None
    return fp.decided(match.home, match.away, match.result.winning_side)


def reformed_finals(
    final_matches: Sequence[Match], seeding: Mapping[PlayerId, int], *, next_id: MatchId
) -> MatchChanges:
    """The finals after a semifinal result changed.

    While a semifinal has no winner the finals do not exist (removed if formed); once both have
    one, the final (winners) and third-place final (losers) are formed, or re-formed where a
    winner changed. Returns only the finals written or removed.
    """
    finals = [m for m in final_matches if m.stage is not Stage.SEMIFINAL]
    semis = [decided(m) for m in final_matches if m.stage is Stage.SEMIFINAL]
    if any(d is None for d in semis):
        return MatchChanges((), tuple(m.id for m in finals))
    first, second = (d for d in semis if d is not None)
    fixtures = fp.finals_fixtures(first, second, seeding)
    if not finals:
        return MatchChanges(tuple(matches_from(fixtures, next_id=next_id)))
    written = []
    for existing, fixture in zip(finals, fixtures, strict=True):
        if (existing.home, existing.away) != (fixture.home, fixture.away):
            written.append(replace(existing, home=fixture.home, away=fixture.away))
    return MatchChanges(tuple(written))
