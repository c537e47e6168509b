"""A club's player register: how names are folded for search, and how two entries merge.

A register entry is one person of the club: a name, the other names they were entered under
(aliases), and what a tournament needs of them (rating, FIDE title and id, team). Search compares
*folded* names, so ``Müller``, ``MULLER`` and ``muller`` are one name; merging keeps one entry
and makes the other one's names its aliases.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.domain.errors import DomainError

MAX_ALIASES = 20
"""Names an entry may be known by besides its own: enough for every misspelling a club makes."""

KEY_SEPARATOR = "\n"
"""Between the folded names in a search key; folding never yields it, so no query spans two."""

_APOSTROPHES = frozenset("'’ʼ`´")
_LETTERS = {
    "ø": "o",
    "ł": "l",
    "đ": "d",
    "ð": "d",
    "þ": "th",
    "æ": "ae",
    "œ": "oe",
    "ß": "ss",
    "ı": "i",
    "ħ": "h",
}
"""Letters that carry their accent inside them (no decomposition gives their base letter)."""


class MergeRefused(DomainError):
    """Two register entries that cannot be one person."""

    code = "merge_refused"


class MergeWithItself(MergeRefused):
    code = "merge_with_itself"


class DifferentFideIds(MergeRefused):
    """Both entries carry a FIDE id, and they differ: FIDE says they are two people."""

    code = "merge_different_fide_ids"


class PlayedTogether(MergeRefused):
    """Both entries played in one tournament: they are two people."""

    code = "merge_played_together"


class TooManyAliases(DomainError):
    code = "too_many_aliases"


def fold_name(name: str) -> str:
    """The form names are compared and searched in: accents and case gone (``Šťastný`` →
    ``stastny``, ``Ørsted`` → ``orsted``, ``STRAẞE`` → ``strasse``), apostrophes dropped
    (``O'Brien`` → ``obrien``), any other run of punctuation or spaces one space
    (``Jean-Luc`` → ``jean luc``)."""
    decomposed = unicodedata.normalize("NFKD", name)
    letters: list[str] = []
    for char in decomposed:
        if unicodedata.combining(char) or char in _APOSTROPHES:
            continue
        for lower in char.casefold():
            lower = _LETTERS.get(lower, lower)
            letters.append(lower if lower.isalnum() else " ")
    return " ".join("".join(letters).split())


def search_key(name: str, aliases: Sequence[str]) -> str:
    """Every name of an entry, folded, one per line: a query matches an entry when its folded
    form is part of one of them."""
    keys = [fold_name(name)]
    for alias in aliases:
        folded = fold_name(alias)
        if folded not in keys:
            keys.append(folded)
    return KEY_SEPARATOR.join(keys)


def clean_aliases(name: str, aliases: Sequence[str]) -> tuple[str, ...]:
    """The aliases to keep: each once (by folded form), none the same as the name, in the order
    given; at most ``MAX_ALIASES``."""
    seen = {fold_name(name)}
    kept: list[str] = []
    for alias in aliases:
        folded = fold_name(alias)
        if folded and folded not in seen:
            seen.add(folded)
            kept.append(alias)
    if len(kept) > MAX_ALIASES:
        raise TooManyAliases(
            f"an entry has at most {MAX_ALIASES} aliases besides its name ({len(kept)} given)"
        )
    return tuple(kept)


@dataclass(frozen=True, slots=True)
class RegisterEntry:
    """One person of the club's register."""

    id: int
    name: str
    aliases: tuple[str, ...] = ()
    rating: int | None = None
    title: str | None = None
    fide_id: int | None = None
    team: str | None = None


def merge_entries(
    kept: RegisterEntry, merged: RegisterEntry, *, shared_tournaments: Sequence[str] = ()
) -> RegisterEntry:
    """The entry two entries of one person become: ``kept`` keeps its id, name and every value
    it has; ``merged``'s name and aliases become aliases of it, and the values ``kept`` lacks
    (rating, title, FIDE id, team) come from ``merged``.

    Refused when they are one entry, when both have a FIDE id and the ids differ, or when they
    played in one tournament (``shared_tournaments``, the tournaments both played): a person
    plays a tournament once, so they are two people."""
    if kept.id == merged.id:
        raise MergeWithItself("an entry cannot be merged into itself: name two entries")
    if kept.fide_id is not None and merged.fide_id is not None and kept.fide_id != merged.fide_id:
        raise DifferentFideIds(
            f"the entries have different FIDE ids ({kept.fide_id} and {merged.fide_id}): "
            "they are two people"
        )
    if shared_tournaments:
        raise PlayedTogether(
            "both entries played in tournament "
            f"{', '.join(sorted(shared_tournaments))}: they are two people"
        )
    aliases = clean_aliases(kept.name, [*kept.aliases, merged.name, *merged.aliases])
    return replace(
        kept,
        aliases=aliases,
        rating=kept.rating if kept.rating is not None else merged.rating,
        title=kept.title if kept.title is not None else merged.title,
        fide_id=kept.fide_id if kept.fide_id is not None else merged.fide_id,
        team=kept.team if kept.team is not None else merged.team,
    )
