"""English sentences for the steps of ``dutch``'s explanation (issue 22, "Why this pairing";
the rule codes and facts of ``app/domain/pairing/dutch/explanation.py``, ``docs/dutch.md``).

One template per rule code, and per variant of a code chosen by a fact (``VARIANTS``): the
criterion that chose a pair or moved a player down, the colour rule. ``%(player)s`` is the
step's first player, ``%(opponent)s`` its second; facts are placeholders by name, ``…score``
facts being half-points shown as points.

Each template is marked ``N_`` and translated in the it / sk / cs catalogues like every
sentence of the pages (``tests/pages/test_catalogue.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from app.pages.i18n import N_

Facts = Mapping[str, int | str]

_GROUP = {
    "first": "first",
    "C1": "C1",
    "C2": "C2",
    "C3": "C3",
    "C4": "C4",
    "C5": "C5",
    "C6": "floaters",
    "C7": "floaters",
    "C8": "C8",
    "C9": "C9",
    **{f"C{k}": "colour" for k in range(10, 14)},
    **{f"C{k}": "floats" for k in range(14, 22)},
    "A4.2": "order",
    "A4.3": "order",
    "A4.4": "order",
}
"""The sentence of each value of the fact ``criterion``: alike criteria share one."""

SENTENCES: dict[str, str] = {
    "dutch.bye_score": N_(
        "The pairing-allocated bye goes to a player of score %(score)s, the lowest score it can "
        "go to (C5)."
    ),
    "dutch.bracket": N_(
        "Paired in bracket %(bracket)s (score %(score)s): %(residents)s players of that score "
        "and %(moved_down)s moved down from above."
    ),
    "dutch.bracket/round": N_(
        "Bracket %(bracket)s (score %(score)s): %(residents)s players of that score and "
        "%(moved_down)s moved down from above; %(pairs)s pairs made, %(floaters)s players "
        "moved on down."
    ),
    # Why a pair: against the pairs the order of the rules gives these players.
    "dutch.pair": N_("%(player)s plays %(opponent)s, chosen by %(criterion)s."),
    "dutch.pair/first": N_(
        "%(player)s plays %(opponent)s: the pair the order of the rules gives (the bracket's "
        "first candidate)."
    ),
    "dutch.pair/C1": N_(
        "%(player)s plays %(opponent)s: the pairs the order of the rules gives these players "
        "would repeat a game, or pair a forbidden pair (C1)."
    ),
    "dutch.pair/C2": N_(
        "%(player)s plays %(opponent)s: the pairs the order of the rules gives would leave the "
        "bye to a player who may not have another (C2)."
    ),
    "dutch.pair/C3": N_(
        "%(player)s plays %(opponent)s: the pairs the order of the rules gives would pair two "
        "players who must both have the same colour (C3)."
    ),
    "dutch.pair/C4": N_(
        "%(player)s plays %(opponent)s: with the pairs the order of the rules gives, the "
        "players below could not all be paired (C4)."
    ),
    "dutch.pair/C5": N_(
        "%(player)s plays %(opponent)s: the pairs the order of the rules gives would leave the "
        "bye to a player with a higher score (C5)."
    ),
    "dutch.pair/floaters": N_(
        "%(player)s plays %(opponent)s: the pairs the order of the rules gives would move more "
        "players, or higher scores, down (%(criterion)s)."
    ),
    "dutch.pair/C8": N_(
        "%(player)s plays %(opponent)s: the pairs the order of the rules gives would leave "
        "fewer pairs, or lower ones, to the next bracket (C8)."
    ),
    "dutch.pair/C9": N_(
        "%(player)s plays %(opponent)s: the pairs the order of the rules gives would leave the "
        "bye to a player who has played fewer games (C9)."
    ),
    "dutch.pair/colour": N_(
        "%(player)s plays %(opponent)s: the pairs the order of the rules gives would meet fewer "
        "colour preferences (%(criterion)s)."
    ),
    "dutch.pair/floats": N_(
        "%(player)s plays %(opponent)s: the pairs the order of the rules gives would repeat "
        "more floats of the last two rounds (%(criterion)s)."
    ),
    "dutch.pair/order": N_(
        "%(player)s plays %(opponent)s: as good on every criterion as the pairs the order of "
        "the rules gives, and generated before them (%(criterion)s)."
    ),
    # Why a player was moved down from a bracket.
    "dutch.moved_down": N_(
        "%(player)s was moved down from bracket %(from_bracket)s (score %(from_score)s) by "
        "%(criterion)s."
    ),
    "dutch.moved_down/first": N_(
        "%(player)s was left over in bracket %(from_bracket)s (score %(from_score)s), as the "
        "order of the rules leaves them, and moved down."
    ),
    "dutch.moved_down/C1": N_(
        "%(player)s was moved down from bracket %(from_bracket)s (score %(from_score)s): the "
        "pairs the order of the rules gives there would repeat a game, or pair a forbidden pair "
        "(C1)."
    ),
    "dutch.moved_down/C2": N_(
        "%(player)s was moved down from bracket %(from_bracket)s (score %(from_score)s): "
        "otherwise the bye would go to a player who may not have another (C2)."
    ),
    "dutch.moved_down/C3": N_(
        "%(player)s was moved down from bracket %(from_bracket)s (score %(from_score)s): the "
        "pairs the order of the rules gives there would pair two players who must both have "
        "the same colour (C3)."
    ),
    "dutch.moved_down/C4": N_(
        "%(player)s was moved down from bracket %(from_bracket)s (score %(from_score)s): "
        "otherwise the players below could not all be paired (C4)."
    ),
    "dutch.moved_down/C5": N_(
        "%(player)s was moved down from bracket %(from_bracket)s (score %(from_score)s): "
        "otherwise the bye would go to a player with a higher score (C5)."
    ),
    "dutch.moved_down/floaters": N_(
        "%(player)s was moved down from bracket %(from_bracket)s (score %(from_score)s): "
        "otherwise more players, or higher scores, would move down (%(criterion)s)."
    ),
    "dutch.moved_down/C8": N_(
        "%(player)s was moved down from bracket %(from_bracket)s (score %(from_score)s): so "
        "that the next bracket can make the most pairs (C8)."
    ),
    "dutch.moved_down/C9": N_(
        "%(player)s was moved down from bracket %(from_bracket)s (score %(from_score)s): "
        "otherwise the bye would go to a player who has played fewer games (C9)."
    ),
    "dutch.moved_down/colour": N_(
        "%(player)s was moved down from bracket %(from_bracket)s (score %(from_score)s): "
        "otherwise fewer colour preferences would be met (%(criterion)s)."
    ),
    "dutch.moved_down/floats": N_(
        "%(player)s was moved down from bracket %(from_bracket)s (score %(from_score)s): "
        "otherwise more floats of the last two rounds would be repeated (%(criterion)s)."
    ),
    "dutch.moved_down/order": N_(
        "%(player)s was moved down from bracket %(from_bracket)s (score %(from_score)s): by "
        "the order of the rules, every criterion being equal (%(criterion)s)."
    ),
    "dutch.bye": N_(
        "%(player)s (score %(score)s, %(played_games)s games played) has the "
        "pairing-allocated bye: the last bracket left them over (%(criterion)s)."
    ),
    "dutch.bye/first": N_(
        "%(player)s (score %(score)s, %(played_games)s games played) has the "
        "pairing-allocated bye: the order of the rules leaves them over in the last bracket."
    ),
    "dutch.colour": N_("%(player)s has White by Art. %(rule)s of the colour rules."),
    "dutch.colour/5.2.1": N_(
        "%(player)s has White: both players get the colour they prefer (Art. 5.2.1)."
    ),
    "dutch.colour/5.2.2": N_(
        "%(player)s has White: the stronger colour preference is granted (Art. 5.2.2)."
    ),
    "dutch.colour/5.2.3": N_(
        "%(player)s has White: the colours alternate from the last round in which the two "
        "had different ones (Art. 5.2.3)."
    ),
    "dutch.colour/5.2.4": N_(
        "%(player)s has White: the higher-ranked player gets their preference (Art. 5.2.4)."
    ),
    "dutch.colour/5.2.5": N_(
        "%(player)s has White: the higher-ranked player's pairing number and the colour drawn "
        "before round 1 decide (Art. 5.2.5)."
    ),
}


def _by_criterion(rule: str) -> Callable[[Facts], str]:
    def variant(facts: Facts) -> str:
        group = _GROUP.get(str(facts.get("criterion")))
        return f"{rule}/{group}" if group is not None else ""

    return variant


VARIANTS: dict[str, Callable[[Facts], str]] = {
    "dutch.bracket": lambda f: "dutch.bracket/round" if "pairs" in f else "",
    "dutch.pair": _by_criterion("dutch.pair"),
    "dutch.moved_down": _by_criterion("dutch.moved_down"),
    "dutch.bye": lambda f: "dutch.bye/first" if f.get("criterion") == "first" else "",
    "dutch.colour": lambda f: f"dutch.colour/{f.get('rule')}",
}
"""The variant of a step's sentence, by its facts (``""``: the rule's own)."""
