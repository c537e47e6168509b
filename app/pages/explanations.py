"""The sentences of a round's explanation (issue 22, "Why this pairing"), one template per rule
code, in the pages' catalogues (``app/locale``).

A step's sentence is its rule's template filled with the step's players and facts:
``%(player)s`` is the first player named, ``%(opponent)s`` the second, ``%(others)s`` every
player after the first and ``%(players)s`` all of them (names joined by commas); every fact is
a placeholder by its name, ``…_score`` facts (half-points) printed as points (``2½``). Some
rules have variants chosen by a fact (``VARIANTS``). A code without a template here (a system
newer than this table), or a template whose placeholders the step cannot fill, gets the generic
sentence: the rule, the article and the facts as they are. ``dutch``'s sentences come from
``explanations_dutch``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from app.domain.explanation import Step
from app.domain.types import PlayerId, Score
from app.pages import explanations_dutch as dutch_sentences
from app.pages.i18n import N_, Language, translations
from app.pages.view import points_text

Facts = Mapping[str, int | str]

SENTENCES: dict[str, str] = {
    # round.* — any system
    "round.not_explained": N_(
        "This round was paired before rounds kept their explanation: it cannot be explained."
    ),
    "round.manual": N_("This round was paired by hand by the organizer, not by the system."),
    "round.fallback": N_(
        "No round without a rematch exists: the players were paired two by two following the "
        "standings (rematches: %(players)s)."
    ),
    "round.fallback/board": N_(
        "No round without a rematch exists: %(player)s (place %(rank)s) and %(opponent)s "
        "(place %(opponent_rank)s) are paired following the standings."
    ),
    "round.fallback/rematch": N_(
        "No round without a rematch exists: %(player)s (place %(rank)s) and %(opponent)s "
        "(place %(opponent_rank)s) are paired following the standings, and meet again."
    ),
    "round.colour": N_("%(player)s is home by the colour rule “%(rule)s”."),
    "round.colour/fewer_home": N_("%(player)s is home: they have been home fewer times."),
    "round.colour/more_away": N_("%(player)s is home: they have been away more times."),
    "round.colour/alternation": N_(
        "%(player)s is home: the two last had different roles, and roles alternate."
    ),
    "round.colour/position": N_(
        "%(player)s is home: same history, decided by the places in the order."
    ),
    "round.colour/lot": N_("%(player)s is home by the lot of the round."),
    "round.group": N_("Group %(group)s is paired on its own."),
    # nearest
    "nearest.draw": N_(
        "Round 1 is drawn by lot from the tournament's seed (draw %(stream)s), then paired "
        "1st–2nd, 3rd–4th, … of the shuffled list."
    ),
    "nearest.drawn": N_(
        "%(player)s and %(opponent)s drew places %(first)s and %(second)s of the shuffled list."
    ),
    "nearest.draw_bye": N_(
        "%(player)s drew the last place of the shuffled list (%(place)s) and has the bye."
    ),
    "nearest.already_met": N_("%(player)s has already played %(others)s."),
    "nearest.no_completion": N_(
        "Pairing %(player)s with %(others)s would have left players who have all played each other."
    ),
    "nearest.lookahead": N_(
        "Pairing %(player)s with %(others)s would have left the %(later_rounds)s later rounds "
        "impossible without a rematch."
    ),
    "nearest.factorization": N_(
        "%(player)s was not paired with %(others)s, so that the pairs not yet played split into "
        "the %(later_rounds)s later rounds."
    ),
    "nearest.paired": N_(
        "%(player)s, the highest-ranked player still unpaired (place %(rank)s), plays "
        "%(opponent)s (place %(opponent_rank)s), the nearest unpaired player below not yet met."
    ),
    "nearest.paired/next": N_(
        "%(player)s, the highest-ranked player still unpaired (place %(rank)s), plays "
        "%(opponent)s (place %(opponent_rank)s), the next candidate below."
    ),
    "nearest.bye": N_(
        "%(player)s (place %(rank)s) has the bye: the lowest-ranked player without one with whom "
        "the round can be paired."
    ),
    "nearest.bye/again": N_(
        "%(player)s (place %(rank)s) has the bye, a second time: no player without one allowed "
        "a round."
    ),
    "nearest.bye_no_round": N_(
        "With the bye to %(players)s no round without a rematch exists: they play."
    ),
    "nearest.bye_lookahead": N_(
        "With the bye to %(players)s the later rounds could not be paired without a rematch: "
        "they play."
    ),
    "nearest.lookahead_ignored": N_(
        "No round leaves the %(later_rounds)s later rounds possible without a rematch: the first "
        "round without a rematch was taken."
    ),
    "nearest.lookahead_unproven": N_(
        "The round was accepted without proof that the %(later_rounds)s later rounds can follow "
        "it (a field too large for an exact look-ahead)."
    ),
    # lim
    "lim.top_bottom": N_("Round 1: one score group, top half against bottom half."),
    "lim.top_bottom/board": N_(
        "Round 1: %(player)s (place %(rank)s) of the top half plays %(opponent)s (place "
        "%(opponent_rank)s) of the bottom half."
    ),
    "lim.score_group": N_("Score group %(score)s: %(players)s."),
    "lim.score_group/median": N_("Score group %(score)s, the median group: %(players)s."),
    "lim.median_blocked": N_(
        "The median group could not be paired: the group %(undone_score)s was undone into it "
        "(%(players)s)."
    ),
    "lim.fallback_search": N_(
        "The score groups could not be paired completely: the round is the one with the fewest "
        "pairs across score groups."
    ),
    "lim.median": N_("The median score is %(median_score)s."),
    "lim.group": N_("Paired in score group %(score)s."),
    "lim.group/median": N_("Paired in the median group (%(score)s)."),
    "lim.downfloater/odd": N_(
        "%(player)s moved down from group %(from_score)s to %(to_score)s: the lowest-ranked of "
        "an odd group."
    ),
    "lim.upfloater/odd": N_(
        "%(player)s moved up from group %(from_score)s to %(to_score)s: the best-ranked of an "
        "odd group."
    ),
    "lim.downfloater/island": N_(
        "%(player)s moved down from group %(from_score)s to %(to_score)s: they had met everyone "
        "in their group."
    ),
    "lim.upfloater/island": N_(
        "%(player)s moved up from group %(from_score)s to %(to_score)s: they had met everyone "
        "in their group."
    ),
    "lim.downfloater/exchange": N_(
        "%(player)s moved down from group %(from_score)s to %(to_score)s in exchange for a "
        "player who had met everyone there."
    ),
    "lim.upfloater/exchange": N_(
        "%(player)s moved up from group %(from_score)s to %(to_score)s in exchange for a player "
        "who had met everyone there."
    ),
    "lim.downfloater/unpairable": N_(
        "%(player)s moved down from group %(from_score)s to %(to_score)s: without them the "
        "group could be paired."
    ),
    "lim.upfloater/unpairable": N_(
        "%(player)s moved up from group %(from_score)s to %(to_score)s: without them the group "
        "could be paired."
    ),
    "lim.downfloater/undone": N_(
        "%(player)s came down from group %(from_score)s into the blocked median group %(to_score)s."
    ),
    "lim.upfloater/undone": N_(
        "%(player)s came up from group %(from_score)s into the blocked median group %(to_score)s."
    ),
    "lim.floater_paired/best": N_(
        "%(player)s, a floater, plays %(opponent)s, the best-ranked available opponent."
    ),
    "lim.floater_paired/worst": N_(
        "%(player)s, a floater, plays %(opponent)s, the lowest-ranked available opponent."
    ),
    "lim.halves": N_(
        "Top half against bottom half: %(player)s (%(position)s. of the top half) plays "
        "%(opponent)s (%(opponent_position)s. of the bottom half)."
    ),
    "lim.transposition": N_(
        "The bottom half was reordered so that nobody meets again (rule 11.2)."
    ),
    "lim.exchange": N_(
        "Players were exchanged between the top and bottom halves so that nobody meets again "
        "(rule 11.2)."
    ),
    "lim.searched": N_(
        "%(player)s plays %(opponent)s in the round with the fewest pairs across score groups."
    ),
    "lim.bye": N_("%(player)s (place %(rank)s) has the bye: the lowest-ranked player without one."),
    "lim.bye/again": N_(
        "%(player)s (place %(rank)s) has the bye, a second time: everyone has had one."
    ),
}
GENERIC = N_("Rule %(rule)s (%(ref)s): %(players)s %(facts)s")
"""A step whose rule has no sentence here."""

VARIANTS: dict[str, Callable[[Facts], str]] = {
    "round.colour": lambda f: f"round.colour/{f.get('rule')}",
    "round.fallback/board": lambda f: "round.fallback/rematch" if f.get("rematch") else "",
    "nearest.paired": lambda f: "" if f.get("nearest") else "nearest.paired/next",
    "nearest.bye": lambda f: "nearest.bye/again" if f.get("byes") else "",
    "lim.bye": lambda f: "lim.bye/again" if f.get("byes") else "",
    "lim.group": lambda f: "lim.group/median" if f.get("median") else "",
    "lim.score_group": lambda f: "lim.score_group/median" if f.get("median") else "",
    "lim.floater_paired": lambda f: f"lim.floater_paired/{f.get('choice')}",
    "lim.downfloater": lambda f: f"lim.downfloater/{f.get('reason')}",
    "lim.upfloater": lambda f: f"lim.upfloater/{f.get('reason')}",
    "lim.top_bottom": lambda f: "lim.top_bottom/board" if "rank" in f else "",
}
SENTENCES |= dutch_sentences.SENTENCES
VARIANTS |= dutch_sentences.VARIANTS
_ON_A_BOARD = {"round.fallback": "round.fallback/board"}
"""Rules whose step on a board reads differently from the same rule as a round step."""


def sentence(
    step: Step,
    names: Mapping[PlayerId, str],
    language: Language,
    *,
    on_board: bool = False,
) -> str:
    """The step in words of ``language``; player ids without a name are shown as ``#id``."""
    facts: dict[str, int | str] = dict(step.facts)
    key = _ON_A_BOARD.get(step.rule, step.rule) if on_board else step.rule
    variant = VARIANTS.get(key)
    if variant is not None:
        key = variant(facts) or key
    catalogue = translations(language)
    shown = [names.get(p, f"#{p}") for p in step.players]
    values: dict[str, object] = {
        name: points_text(Score(value))
        if name.endswith("score") and isinstance(value, int)
        else value
        for name, value in facts.items()
    }
    values |= {
        "player": shown[0] if shown else "",
        "opponent": shown[1] if len(shown) > 1 else "",
        "others": ", ".join(shown[1:]),
        "players": ", ".join(shown),
    }
    template = SENTENCES.get(key)
    if template is not None:
        try:
            return catalogue.gettext(template) % values
        except (KeyError, ValueError, TypeError):
            pass  # a step this template does not fit: the generic sentence says it all
    listed = ", ".join(f"{name} = {value}" for name, value in facts.items())
    generic = {"rule": step.rule, "ref": step.ref, "players": values["players"], "facts": listed}
    return (catalogue.gettext(GENERIC) % generic).strip()


def sentences(
    steps: Sequence[Step], names: Mapping[PlayerId, str], language: Language, *, on_board: bool
) -> list[str]:
    return [sentence(s, names, language, on_board=on_board) for s in steps]
