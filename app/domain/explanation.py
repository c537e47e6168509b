"""Why a round is paired as it is (issue 22, "Why this pairing"): the steps of the system's
rules that placed each board and bye, as data a page or a client turns into sentences.

A ``Step`` names its rule by a stable code (``"nearest.offer"``, ``"dutch.c9"``), the article
or spec line it applies (``"pairing-nearest.md, step 2"``, ``"C.04.3 C9"``), the players it
concerns and machine-readable facts (the values a sentence template fills in). Sentences are
not made here: the domain stays free of languages, and every language renders the same facts.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.domain.types import PlayerId

Fact = tuple[str, int | str]
"""A named value of a step: ``("score", 6)``, ``("criterion", "C12")``."""


@dataclass(frozen=True, slots=True)
class Step:
    """One rule that acted in placing a board or a bye, or in shaping the whole round."""

    rule: str
    ref: str
    players: tuple[PlayerId, ...] = ()
    facts: tuple[Fact, ...] = ()


@dataclass(frozen=True, slots=True)
class Placement:
    """The steps that placed one board (its two players, better-ranked first) or the bye
    (``board`` is ``None``, one player)."""

    board: int | None
    players: tuple[PlayerId, ...]
    steps: tuple[Step, ...]


@dataclass(frozen=True, slots=True)
class RoundExplanation:
    """A round's explanation: the steps that shaped the whole round (score groups, brackets,
    a fallback), then one placement per board and bye."""

    system: str
    round_steps: tuple[Step, ...] = ()
    placements: tuple[Placement, ...] = ()


NO_EXPLANATION = RoundExplanation(system="")
"""What a round paired without explanation carries (before a system explains itself)."""

NOT_EXPLAINED = "round.not_explained"
"""The round was generated before rounds kept their explanation (or read from a TRF file)."""
MANUAL = "round.manual"
"""The round was paired by hand (the arbiter's manual pairing), not by the system."""
FALLBACK = "round.fallback"
"""No rematch-free round exists: the players were paired two by two following the order."""
COLOUR = "round.colour"
"""Who is home on a board, by the rule of ``colours.md`` named in the fact ``rule``."""
GROUP = "round.group"
"""Groups variant: the steps after it concern the group named in the fact ``group``."""


def without_steps(system: str, rule: str, ref: str) -> RoundExplanation:
    """A round's explanation that is one round step saying why there are no others
    (``NOT_EXPLAINED``, ``MANUAL``)."""
    return RoundExplanation(system=system, round_steps=(Step(rule, ref),))
