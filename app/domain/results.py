"""Which results are valid, and which may still change (``tournament.md``, "Results",
"Corrections")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from app.domain.errors import FinalPlayed, InvalidResult, WinnerRequired
from app.domain.matches import Match
from app.domain.round_actions import RoundAction, RoundSituation, require
from app.domain.types import Forfeit, PlayerId, Result, Side, Stage

MAX_GOALS = 999


def validate_result(match: Match, result: Result) -> Result:
    """The result as stored, or ``InvalidResult``/``WinnerRequired``.

    A forfeit is 0–0 won by the side that showed up; a double forfeit (both absent) is 0–0
    lost by both, in a Swiss round only (a final-phase match needs a winner); a decisive score
    names no other winner and no ``decided_by``; a level Swiss score is a draw; a level
    final-phase score names its winner.
    """
    if result.forfeit is not None:
        if result.forfeit is Forfeit.BOTH and match.stage is not Stage.SWISS:
            raise WinnerRequired(
                "a final-phase match needs a winner: a double forfeit belongs to Swiss rounds "
                "(send the side that did not show, `home` or `away`)"
            )
        if result.winner is not None and result.winner is not result.forfeit.present:
            raise InvalidResult(
                "the winner of a forfeit is the side that showed up: leave out `winner`"
            )
        if result.decided_by is not None:
            raise InvalidResult("a forfeit is not decided on the field: leave out `decided_by`")
        return Result(0, 0, forfeit=result.forfeit)
    for goals in (result.home_goals, result.away_goals):
        if not 0 <= goals <= MAX_GOALS:
            raise InvalidResult(f"goals are 0 to {MAX_GOALS}: check the score as played")
    level = result.home_goals == result.away_goals
    if not level:
        scored = Side.HOME if result.home_goals > result.away_goals else Side.AWAY
        if result.winner not in (None, scored):
            raise InvalidResult(
                "the winner named is not the side with more goals: correct the score, or "
                "leave out `winner` (a decided score names its own)"
            )
        if result.decided_by is not None:
            raise InvalidResult(
                "`decided_by` belongs to a level score with a named winner: leave it out"
            )
        return Result(result.home_goals, result.away_goals)
    if match.stage is Stage.SWISS:
        if result.winner is not None or result.decided_by is not None:
            raise InvalidResult(
                "a level Swiss score is a draw: leave out `winner` and `decided_by`"
            )
        return result
    if result.winner is None:
        raise WinnerRequired(
            "a level final-phase score must name its winner: add `winner` (`home` or "
            "`away`) and how it was decided (`decided_by`, e.g. `penalties`)"
        )
    return result


def check_correctable(
    match: Match,
    *,
    new_winner: PlayerId | None,
    current_round: int,
    final_phase_started: bool,
    final_matches: Sequence[Match],
) -> None:
    """Swiss results change only in the latest round, before the final phase; a final-phase
    match's winner changes only while none of ``final_matches`` (the matches that take its
    winner or loser: a semifinal's finals) has a result."""
    if match.stage is Stage.SWISS:
        # which rounds' results may change: ``round_actions.ALLOWED`` (the latest, before the
        # final phase)
        require(
            RoundAction.RESULT,
            RoundSituation(
                match.round or 0,
                current_round,
                swiss_rounds=current_round,
                final_phase_started=final_phase_started,
                recorded=(),
                open=(),
            ),
        )
        return
    played = [m for m in final_matches if m.result is not None]
    if match.winner == new_winner or not played:
        return
    if match.stage is Stage.SEMIFINAL:
        raise FinalPlayed(
            "a final already has a result: clear it before changing a semifinal's winner"
        )
    raise FinalPlayed(
        f"match {played[0].id}, which takes this match's winner or loser, already has a "
        "result: clear it before changing this match's winner"
    )


def winner_of(match: Match, result: Result) -> PlayerId | None:
    """The player who wins ``match`` with ``result`` (``None`` for a draw)."""
    side = result.winning_side
    if side is None:
        return None
    return match.home if side is Side.HOME else match.away


def with_result(
    match: Match,
    result: Result | None,
    *,
    current_round: int,
    final_phase_started: bool,
    final_matches: Sequence[Match],
) -> Match:
    """``match`` with ``result`` recorded, or cleared (``None``), if the result is valid and
    the match may still change (``tournament.md``, "Results", "Corrections")."""
    if result is not None:
        result = validate_result(match, result)
    check_correctable(
        match,
        new_winner=winner_of(match, result) if result is not None else None,
        current_round=current_round,
        final_phase_started=final_phase_started,
        final_matches=final_matches,
    )
    return replace(match, result=result)
