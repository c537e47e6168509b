"""The checker (``docs/rules.md``, "Checking a tournament's pairings"): every Swiss round of a
tournament paired again from the rounds before it, by the tournament's own system, and compared
with the round as recorded.

What an arbiter runs before sending a tournament for rating: a round paired by hand, edited in a
file, or paired by another program that reads the rules differently shows as a round whose
pairing differs. A pairing is compared as a set of boards and byes: a board is the unordered
pair of its players and which of them was at home (White in ``dutch``), so a board whose two
players are the same but seated the other way is a colour difference, told apart from a
different opponent.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from app.domain.deadline import NO_DEADLINE, Deadline
from app.domain.errors import DomainError, PairingTimeout, RoundIncomplete
from app.domain.matches import Match
from app.domain.tournament import Tournament
from app.domain.types import PairingSystem, Player, PlayerId, RoundNumber, Stage

__all__ = ["CheckReport", "CheckedPairing", "RoundDifference", "check_rounds"]


@dataclass(frozen=True, slots=True)
class CheckedPairing:
    """A round's pairing: its boards as (home, away), board order, and its byes (the
    pairing-allocated ones; a bye a player asked for is no part of the pairing)."""

    boards: tuple[tuple[PlayerId, PlayerId], ...]
    byes: tuple[PlayerId, ...]

    def opponents(self) -> dict[PlayerId, PlayerId | None]:
        """Each paired player's opponent; ``None`` for the bye."""
        met: dict[PlayerId, PlayerId | None] = {pid: None for pid in self.byes}
        for home, away in self.boards:
            met[home] = away
            met[away] = home
        return met


@dataclass(frozen=True, slots=True)
class RoundDifference:
    """A round whose pairing as recorded is not the system's.

    ``system`` is ``None`` when the system finds no pairing for the round (``refusal`` says
    why). ``other_opponents`` are the players whose opponent (or bye) differs; ``swapped_colours``
    the recorded boards the system pairs too but with home and away the other way round.
    """

    number: RoundNumber
    recorded: CheckedPairing
    system: CheckedPairing | None
    other_opponents: tuple[PlayerId, ...]
    swapped_colours: tuple[tuple[PlayerId, PlayerId], ...]
    refusal: str | None = None


@dataclass(frozen=True, slots=True)
class CheckReport:
    """The check of a tournament: the system it paired again with, how many rounds it checked
    of the rounds recorded, and each round that differs, in round order.

    ``unchecked_from`` is the first round that could not be checked because a round before it
    lacks a result (the pairing of a round depends on every result before it), else ``None``.
    """

    system: PairingSystem
    rounds: int
    rounds_checked: int
    differences: tuple[RoundDifference, ...]
    unchecked_from: RoundNumber | None = None


def check_rounds(tournament: Tournament, *, deadline: Deadline = NO_DEADLINE) -> CheckReport:
    """Pair every Swiss round ``r`` of ``tournament`` again, by its system, from rounds
    1..r−1 and the field as it stood for round ``r`` (late entries from their first round,
    withdrawals after their last, the byes asked for ``r``), and list the rounds whose pairing
    differs from the one recorded. Nothing of ``tournament`` changes.

    ``deadline`` bounds the whole check: past it ``PairingTimeout`` is raised, naming the round.
    A DYP tournament is refused (``NotForDyp``): the check compares boards of two players.
    """
    tournament.refuse_drawn_partners("the check")
    differences: list[RoundDifference] = []
    checked = 0
    unchecked: RoundNumber | None = None
    for swiss_round in tournament.rounds:
        number = swiss_round.number
        recorded = _pairing(tournament.round_matches(number), swiss_round.byes)
        before = _before(tournament, number)
        try:
            again = before.generate_round(deadline=deadline)
        except PairingTimeout as late:
            raise PairingTimeout(
                f"the check ran out of time at round {number} of {tournament.current_round}: {late}"
            ) from late
        except RoundIncomplete:
            unchecked = RoundNumber(number)
            break
        except DomainError as refused:
            checked += 1
            others = tuple(sorted(recorded.opponents()))
            differences.append(RoundDifference(number, recorded, None, others, (), str(refused)))
            continue
        checked += 1
        system = _pairing(before.round_matches(number), again.byes)
        difference = _compare(number, recorded, system)
        if difference is not None:
            differences.append(difference)
    return CheckReport(
        tournament.settings.pairing,
        tournament.current_round,
        checked,
        tuple(differences),
        unchecked,
    )


def _before(tournament: Tournament, number: RoundNumber) -> Tournament:
    """The tournament as it stood when round ``number`` was paired: rounds 1..number−1 with
    their matches, and the players of round ``number`` (nobody entered later; a withdrawal
    after ``number`` or later not made yet). The forbidden pairs and settings are those of now:
    when a pair was listed is not kept."""
    players = [_as_of(p, number) for p in tournament.players.values() if p.entered_round <= number]
    return Tournament(
        tournament.settings,
        players,
        rounds=tournament.rounds[: number - 1],
        matches=(
            m
            for m in tournament.matches.values()
            if m.stage is Stage.SWISS and m.round is not None and m.round < number
        ),
        forbidden_pairs=tournament.forbidden_pairs.values(),
    )


def _as_of(player: Player, number: RoundNumber) -> Player:
    if player.withdrawn_after is not None and player.withdrawn_after >= number:
        return replace(player, withdrawn_after=None)
    return player


def _pairing(matches: Iterable[Match], byes: Iterable[PlayerId]) -> CheckedPairing:
    ordered = sorted(matches, key=lambda m: (m.board, m.id))
    return CheckedPairing(tuple((m.home, m.away) for m in ordered), tuple(sorted(byes)))


def _compare(
    number: RoundNumber, recorded: CheckedPairing, system: CheckedPairing
) -> RoundDifference | None:
    """The difference of two pairings of one round, or ``None`` when they are the same set of
    boards (the same players, the same one at home) and byes; board order does not count."""
    if set(recorded.boards) == set(system.boards) and set(recorded.byes) == set(system.byes):
        return None
    theirs = system.opponents()
    ours = recorded.opponents()
    other = tuple(
        sorted(
            pid
            for pid in ours.keys() | theirs.keys()
            if pid not in ours or pid not in theirs or ours[pid] != theirs[pid]
        )
    )
    flipped = {(away, home) for home, away in system.boards}
    swapped = tuple((home, away) for home, away in recorded.boards if (home, away) in flipped)
    return RoundDifference(number, recorded, system, other, swapped)
