"""The games a rating counts: every match with a result, except forfeits (byes are no match)."""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from app.domain.matches import Match
from app.domain.types import PlayerId, Result, Side

K = TypeVar("K", bound=Hashable)

WIN, DRAW, LOSS = Fraction(1), Fraction(1, 2), Fraction(0)


@dataclass(frozen=True, slots=True)
class Game(Generic[K]):
    """One rated game from ``player``'s side: ``score`` 1 (won), ½ (drawn) or 0 (lost)."""

    player: K
    opponent: K
    score: Fraction


def rated_games(matches: Iterable[Match]) -> list[Game[PlayerId]]:
    """Both sides of every match with a result, in match order, forfeits left out.

    A match's winner scores 1 and the loser 0, whatever decided it (goals, a tie-break,
    penalties); a match without a winner is a draw, ½ each. A forfeit (one side or both) is no
    game: nobody's rating moves for it, as FIDE leaves forfeits unrated. A match of drawn
    partners (DYP, two against two) is no game of one player against another either: it is
    left out, so a DYP evening moves nobody's rating.
    """
    games: list[Game[PlayerId]] = []
    for match in sorted(matches, key=lambda m: m.id):
        if match.result is not None and match.home_partner is None:
            games.extend(game_pair(match.home, match.away, match.result))
    return games


def game_pair(home: K, away: K, result: Result) -> tuple[Game[K], ...]:
    """The two sides of one match's ``result`` as rated games (none for a forfeit), as
    ``rated_games`` counts them: the winner 1, the loser 0, no winner ½ each."""
    if result.forfeit is not None:
        return ()
    side = result.winning_side
    home_score, away_score = (
        (DRAW, DRAW) if side is None else (WIN, LOSS) if side is Side.HOME else (LOSS, WIN)
    )
    return (Game(home, away, home_score), Game(away, home, away_score))


def halves(score: Fraction) -> int:
    """A game's score in half-points (2, 1 or 0)."""
    return score.numerator * 2 // score.denominator


def renamed(games: Iterable[Game[PlayerId]], ids: Mapping[PlayerId, K]) -> list[Game[K]]:
    """The games with each player named by ``ids`` (e.g. a club register's entry); games of a
    player missing from ``ids`` are left out."""
    return [
        Game(ids[g.player], ids[g.opponent], g.score)
        for g in games
        if g.player in ids and g.opponent in ids
    ]
