"""A top cut's matches: formed from the bracket as soon as both players of a match are known,
re-formed or removed when a result changes (``tournament.md``, "Top cut", "Corrections")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from app.domain import final_phase as fp
from app.domain.bracket import Bracket, bracket_ranking, reset_needed, slot_player
from app.domain.colours import seat_by_rank
from app.domain.final_matches import decided
from app.domain.matches import Match, MatchChanges, MatchId
from app.domain.types import Pair, PlayerId


def numbered(bracket: Bracket, final_matches: Sequence[Match]) -> dict[int, Match]:
    """The final-phase matches by their number in the bracket (found by stage and board)."""
    numbers = bracket.numbers()
    return {numbers[(m.stage, m.board)]: m for m in final_matches if (m.stage, m.board) in numbers}


def decided_matches(bracket: Bracket, final_matches: Sequence[Match]) -> dict[int, fp.Decided]:
    """Winner and loser of every bracket match that has a winner, by bracket number."""
    return {
        number: result
        for number, match in numbered(bracket, final_matches).items()
        if (result := decided(match)) is not None
    }


def progressed(
    bracket: Bracket,
    seeds: Sequence[PlayerId],
    final_matches: Sequence[Match],
    rank: Mapping[PlayerId, int],
    *,
    next_id: MatchId,
) -> MatchChanges:
    """The bracket's matches after the start or a result change: a match is formed once both
    its players are known (the better ``rank`` at home), re-formed where one changed, and
    removed while one is unknown (a grand final's reset also while it is not needed:
    ``bracket.reset_needed``). Returns only the matches written or removed, new ones
    numbered from ``next_id`` in bracket order."""
    existing = numbered(bracket, final_matches)
    known: dict[int, fp.Decided] = {}
    written: list[Match] = []
    removed: list[MatchId] = []
    for slot_match in bracket.matches:  # in play order: a match's feeders come before it
        top, bottom = (slot_player(s, seeds, known) for s in slot_match.slots)
        match = existing.get(slot_match.number)
        if top is None or bottom is None or not reset_needed(bracket, slot_match, seeds, known):
            if match is not None:
                removed.append(match.id)
            continue
        higher, lower = sorted((top, bottom), key=lambda pid: rank[pid])
        if match is None:
            seat = seat_by_rank(Pair(higher, lower))
            match = Match(
                next_id, slot_match.stage, None, None, slot_match.board, seat.home, seat.away,
                seat.rule,
            )  # fmt: skip
            next_id += 1
            written.append(match)
        elif (match.home, match.away) != (higher, lower):
            # a feeder's winner changed: the correction rules allow it only while this
            # match has no result
            match = replace(match, home=higher, away=lower, result=None)
            written.append(match)
        if (result := decided(match)) is not None:
            known[slot_match.number] = result
    return MatchChanges(tuple(written), tuple(removed))


def later_matches(bracket: Bracket, match: Match, final_matches: Sequence[Match]) -> list[Match]:
    """The formed matches that take ``match``'s winner or loser (every final-phase match has
    its place in its kind's bracket: ``TournamentState.bracket``)."""
    existing = numbered(bracket, final_matches)
    number = bracket.numbers()[(match.stage, match.board)]
    return [existing[n] for n in bracket.fed_by(number) if n in existing]


def ranking(
    bracket: Bracket, final_matches: Sequence[Match], rank: Mapping[PlayerId, int]
) -> list[PlayerId] | None:
    """The qualifiers' places from the played bracket (``bracket.bracket_ranking``)."""
    return bracket_ranking(bracket, decided_matches(bracket, final_matches), rank)
