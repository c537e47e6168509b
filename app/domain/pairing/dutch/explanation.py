"""Why ``dutch`` paired a round as it did (C.04.3; issue 22 "Why this pairing").

The engine finds each bracket's pairing as a heaviest matching and never lists the candidates
of Art. 3–4, so the explanation is read back from what it chose, bracket by bracket, against
the bracket's *first candidate* (Art. 4: the MDPs in order with the highest residents, then
the remainder's S1 in order with S2 in order, nothing transposed or exchanged):

- the pairs the chosen pairing and the first candidate share were chosen by nothing but the
  order (criterion ``"first"``);
- the others fall into *changes*: the smallest sets of players that the two pair differently
  (the alternating paths and cycles of the two pairings). Undoing one change gives a candidate
  of the bracket that differs from the chosen one in those players only; what made the chosen
  one win over it is its criterion: ``C1`` or ``C3`` when the first candidate's pair may not
  meet, else the highest quality criterion (the weight fields of ``criteria``) on which
  the chosen pairs are better, ``A4.2``/``A4.3``/``A4.4`` (the order of Art. 4: transposition,
  exchange, moved-down players) when they are equal on every criterion; and when, within the
  bracket, the undone change would be no worse, what the bracket leaves below decided: ``C8``
  or ``C4`` (see ``_outside``).

A player the bracket moves down gets the criterion of their change (``"first"``: the first
candidate leaves them over too). The cost is a few weights per changed pair: the matchings are
not solved again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from app.domain.explanation import Fact, Placement, RoundExplanation, Step
from app.domain.pairing.dutch.colours import colour_rule
from app.domain.pairing.dutch.completion import completable
from app.domain.pairing.dutch.criteria import Criteria
from app.domain.pairing.dutch.types import Colour
from app.domain.types import Score

__all__ = [
    "BRACKET",
    "BYE",
    "BYE_SCORE",
    "COLOUR",
    "MOVED_DOWN",
    "PAIR",
    "SYSTEM",
    "BracketRecord",
    "explain_round",
    "reference",
]

SYSTEM = "dutch"
BYE_SCORE = "dutch.bye_score"
"""Round step (C5): the score the PAB's assignee has, fixed before any bracket (``score``)."""
BRACKET = "dutch.bracket"
"""A bracket (Art. 1.3): ``bracket`` its number from the top, ``score`` its residents' score,
``residents`` and ``moved_down`` how many of each (the step's players are the moved-down
ones); as a round step also ``pairs``, ``floaters`` and ``paired_with`` (``alone``: on its own;
``next``: together with the next scoregroup, for C8; ``rest``: with everybody below, for C4 or
because the PAB's score reaches it)."""
MOVED_DOWN = "dutch.moved_down"
"""The player was left unpaired in bracket ``from_bracket`` (score ``from_score``) and moved
down, by ``criterion`` (see ``PAIR``); one step per bracket left, the highest first."""
PAIR = "dutch.pair"
"""The board's pair and the criterion that chose it over the first candidate's (``criterion``:
``first``, ``C1``, ``C3``, ``C4``–``C21``, ``A4.2``, ``A4.3``, ``A4.4``; ``docs/dutch.md``,
"Why this pairing"); ``first_partner`` the higher player's partner in the first candidate,
when it is another."""
COLOUR = "dutch.colour"
"""Art. 5.2: the rule (``rule``: ``5.2.1`` … ``5.2.5``) that gave ``white`` White."""
BYE = "dutch.bye"
"""The PAB (C2, C5, C9): ``score`` the player's, ``played_games``, and ``criterion`` why the
last bracket left this player over (as for ``MOVED_DOWN``)."""

FIRST = "first"
"""The criterion of a pair (or a player left over) that the first candidate has too."""


@dataclass(frozen=True, slots=True)
class BracketRecord:
    """One bracket as ``dutch._pair_brackets`` paired it (players by index, in pairing order).

    ``completion``, ``bye_games``: the C4/C5 and C9 fields counted in its matching; ``how``:
    ``alone``, ``next`` or ``rest`` (``BRACKET``).
    """

    mdps: tuple[int, ...]
    residents: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]
    floaters: tuple[int, ...]
    completion: bool
    bye_games: bool
    how: str


def reference(criterion: str) -> str:
    """The article a criterion value names."""
    if criterion == FIRST:
        return "C.04.3 Art. 4.1"
    if criterion.startswith("A"):
        return f"C.04.3 Art. {criterion[1:]}"
    return f"C.04.3 {criterion}"


def first_candidate(mdps: Sequence[int], residents: Sequence[int]) -> list[tuple[int, int]]:
    """Art. 4's first candidate of a bracket: each MDP in order with the highest resident not
    yet taken (4.4, 4.2), then the remainder's S1 (its first half) in order with S2 in order."""
    k = min(len(mdps), len(residents))
    pairs = [(mdps[i], residents[i]) for i in range(k)]
    remainder = residents[k:]
    half = len(remainder) // 2
    pairs.extend((remainder[i], remainder[half + i]) for i in range(half))
    return pairs


def _changes(
    chosen: Sequence[tuple[int, int]], first: Sequence[tuple[int, int]]
) -> list[tuple[list[tuple[int, int]], list[tuple[int, int]]]]:
    """The alternating paths and cycles of ``chosen`` and ``first`` (their pairs not shared)."""
    mate: dict[int, int] = {}
    for a, b in chosen:
        mate[a], mate[b] = b, a
    mate0: dict[int, int] = {}
    for a, b in first:
        mate0[a], mate0[b] = b, a
    changed = [v for v in [*mate, *mate0] if mate.get(v) != mate0.get(v)]
    seen: set[int] = set()
    out = []
    for start in changed:
        if start in seen:
            continue
        seen.add(start)
        group, stack = [start], [start]
        while stack:
            v = stack.pop()
            for w in (mate.get(v), mate0.get(v)):
                if w is not None and w not in seen and mate.get(w) != mate0.get(w):
                    seen.add(w)
                    group.append(w)
                    stack.append(w)
        out.append((_pairs_among(group, mate), _pairs_among(group, mate0)))
    return out


def _pairs_among(players: Sequence[int], mate: Mapping[int, int]) -> list[tuple[int, int]]:
    """The pairs of ``mate`` among ``players`` (a change: both players of each of its pairs
    are in it), higher-ranked (lower index) first."""
    pairs = []
    for v in players:
        w = mate.get(v)
        if w is not None and v < w:
            pairs.append((v, w))
    return pairs


class _Bracket:
    """The criteria of one bracket's pairs, the changes, and each player's reason."""

    def __init__(self, criteria: Criteria, record: BracketRecord, below: Sequence[int]) -> None:
        self.criteria = criteria
        self.record = record
        self.below = below
        first = first_candidate(record.mdps, record.residents)
        self.first_partner: dict[int, int] = {}
        for a, b in first:
            self.first_partner[a], self.first_partner[b] = b, a
        self.pair_criterion: dict[tuple[int, int], str] = {}
        self.player_criterion: dict[int, str] = {}
        for chosen, undone in _changes(record.pairs, first):
            criterion = self._criterion(chosen, undone)
            for pair in chosen:
                self.pair_criterion[pair] = criterion
            for pair in [*chosen, *undone]:
                for v in pair:
                    self.player_criterion[v] = criterion

    def _criterion(
        self, chosen: Sequence[tuple[int, int]], undone: Sequence[tuple[int, int]]
    ) -> str:
        criteria, record = self.criteria, self.record
        if any(criteria.ids[b] in criteria.opponents[a] for a, b in undone):
            return "C1"
        if not all(criteria.colours_allowed(a, b) for a, b in undone):
            return "C3"

        def weight(pairs: Sequence[tuple[int, int]]) -> int:
            return sum(
                criteria.quality(
                    a,
                    b,
                    in_bracket=True,
                    in_next=False,
                    completion=record.completion,
                    bye_games=record.bye_games,
                )
                for a, b in pairs
            )

        decided = criteria.layout.first_difference(weight(chosen), weight(undone))
        if decided is None:
            return self._outside(chosen, undone)
        if decided == "C4":
            return self._completion(chosen, undone)
        if decided:
            return decided
        moved = {v for pair in chosen for v in pair} != {v for pair in undone for v in pair}
        if moved and record.how != "alone":
            return self._outside(chosen, undone)  # equal here, but another player moves down
        return self._order(chosen)

    def _completion(
        self, chosen: Sequence[tuple[int, int]], undone: Sequence[tuple[int, int]]
    ) -> str:
        """The C4/C5 field decided: C2 when the first candidate would leave over a player who
        may not have the PAB, C5 one whose score is above the PAB's, else C4."""
        paired = {v for pair in undone for v in pair}
        left = [v for pair in chosen for v in pair if v not in paired]
        players = self.criteria.players
        if any(not players[v].bye_eligible for v in left):
            return "C2"
        bye_score = self.criteria.bye_score
        if bye_score is not None and any(players[v].score > bye_score for v in left):
            return "C5"
        return "C4"

    def _order(self, chosen: Sequence[tuple[int, int]]) -> str:
        """Equal on every criterion: the order of Art. 4 chose (4.4 when MDPs are involved,
        4.3 when a pair is within one half of the first candidate's remainder, else 4.2)."""
        record = self.record
        mdps = set(record.mdps)
        if any(a in mdps or b in mdps for a, b in chosen):
            return "A4.4"
        remainder = list(record.residents[min(len(record.mdps), len(record.residents)) :])
        half = len(remainder) // 2
        upper = set(remainder[:half])
        if any((a in upper) == (b in upper) for a, b in chosen):
            return "A4.3"
        return "A4.2"

    def _outside(self, chosen: Sequence[tuple[int, int]], undone: Sequence[tuple[int, int]]) -> str:
        """Within the bracket the first candidate's pairs would be no worse: what the bracket
        leaves below decided. C4 when the players it would then move down could not all be
        paired with everybody below (one left over for the PAB), else C8."""
        paired = {v for pair in undone for v in pair}
        floaters = [v for v in self.record.floaters if v not in paired]
        floaters += [v for pair in chosen for v in pair if v not in paired]
        if not completable(self.criteria, [*floaters, *self.below]):
            return "C4"
        return "C8"


def explain_round(
    criteria: Criteria,
    bye_score: Score | None,
    records: Sequence[BracketRecord],
    boards: Sequence[tuple[int, int]],
    bye: int | None,
    initial: Colour,
) -> RoundExplanation:
    """The explanation of a round: ``boards`` are the pairs (higher-ranked first) in board
    order, ``bye`` the PAB's player (indices into ``criteria.players``)."""
    players = criteria.players
    ids = criteria.ids
    bracket_of: dict[int, int] = {}
    home: dict[int, int] = {}
    explained: list[_Bracket] = []
    round_steps: list[Step] = []
    if bye_score is not None:
        round_steps.append(Step(BYE_SCORE, "C.04.3 C5", (), (("score", bye_score),)))
    below = [v for record in records for v in record.residents]
    for k, record in enumerate(records):
        for v in record.residents:
            home[v] = k
        for v in [*record.mdps, *record.residents]:
            bracket_of[v] = k
        del below[: len(record.residents)]
        explained.append(_Bracket(criteria, record, tuple(below)))
        round_steps.append(
            Step(
                BRACKET,
                "C.04.3 Art. 1.3",
                tuple(ids[v] for v in record.mdps),
                (
                    *_bracket_facts(criteria, records, k),
                    ("pairs", len(record.pairs)),
                    ("floaters", len(record.floaters)),
                    ("paired_with", record.how),
                ),
            )
        )

    def bracket_steps(k: int, board_players: Sequence[int]) -> list[Step]:
        record = records[k]
        steps = [
            Step(
                BRACKET,
                "C.04.3 Art. 1.3",
                tuple(ids[v] for v in record.mdps),
                _bracket_facts(criteria, records, k),
            )
        ]
        for v in board_players:
            for j in range(home[v], k):
                why = explained[j].player_criterion.get(v, FIRST)
                steps.append(
                    Step(
                        MOVED_DOWN,
                        reference(why),
                        (ids[v],),
                        (
                            ("from_bracket", j + 1),
                            ("from_score", players[records[j].residents[0]].score),
                            ("criterion", why),
                        ),
                    )
                )
        return steps

    placements = []
    for number, (a, b) in enumerate(boards, start=1):
        k = bracket_of[a]
        here = explained[k]
        criterion = here.pair_criterion.get((a, b), FIRST)
        facts: list[Fact] = [("bracket", k + 1), ("criterion", criterion)]
        first = here.first_partner.get(a)
        if criterion != FIRST and first is not None and first != b:
            facts.append(("first_partner", ids[first]))
        colour, rule = colour_rule(players[a], players[b], initial)
        white = ids[a] if colour is Colour.WHITE else ids[b]
        steps = [
            *bracket_steps(k, (a, b)),
            Step(PAIR, reference(criterion), (ids[a], ids[b]), tuple(facts)),
            Step(
                COLOUR,
                f"C.04.3 Art. {rule}",
                (white,),
                (("rule", rule), ("white", white)),
            ),
        ]
        placements.append(Placement(number, (ids[a], ids[b]), tuple(steps)))
    if bye is not None:
        k = len(records) - 1
        why = explained[k].player_criterion.get(bye, FIRST)
        steps = [
            *bracket_steps(k, (bye,)),
            Step(
                BYE,
                "C.04.3 C5",
                (ids[bye],),
                (
                    ("score", players[bye].score),
                    ("played_games", players[bye].played_games),
                    ("criterion", why),
                ),
            ),
        ]
        placements.append(Placement(None, (ids[bye],), tuple(steps)))
    return RoundExplanation(SYSTEM, tuple(round_steps), tuple(placements))


def _bracket_facts(
    criteria: Criteria, records: Sequence[BracketRecord], k: int
) -> tuple[Fact, ...]:
    record = records[k]
    return (
        ("bracket", k + 1),
        ("score", criteria.players[record.residents[0]].score),
        ("residents", len(record.residents)),
        ("moved_down", len(record.mdps)),
    )
