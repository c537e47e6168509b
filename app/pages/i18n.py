"""Languages of the pages: the catalogues in ``app/locale`` and the choice of one per request.

The catalogues are gettext ``.po`` files read with Babel when a language is first used (no
compile step, nothing generated is committed). Message ids are the English text, so English
needs no catalogue. ``tests/pages/test_catalogue.py`` checks every catalogue against what the
templates and ``N_``-marked strings ask for.
"""

from __future__ import annotations

import io
from functools import cache
from importlib import resources
from typing import Literal, get_args

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import NullTranslations, Translations

Language = Literal["en", "it", "sk", "cs"]
LANGUAGES: tuple[Language, ...] = get_args(Language)
DEFAULT: Language = "en"
_BY_TAG: dict[str, Language] = {language: language for language in LANGUAGES}
MAX_ACCEPT_LANGUAGE = 512
"""Characters of ``Accept-Language`` looked at; a longer header is cut there."""


def N_(message: str) -> str:
    """Marks ``message`` for the catalogue; the template translates it when it is shown."""
    return message


@cache
def translations(language: Language) -> NullTranslations:
    """The catalogue of ``language``, read once per process; English is the message ids."""
    if language == DEFAULT:
        return NullTranslations()
    path = resources.files("app") / "locale" / language / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as source:
        catalog = read_po(source, locale=language)
    compiled = io.BytesIO()
    write_mo(compiled, catalog)  # fuzzy entries are left out: they fall back to English
    compiled.seek(0)
    return Translations(compiled)


def choose_language(asked: Language | None, accept_language: str | None) -> Language:
    """``?lang=`` when given, else the first supported language of ``Accept-Language`` (by
    quality, then order; ``sk-SK`` counts as ``sk``), else English."""
    if asked is not None:
        return asked
    for tag in _by_preference(accept_language or ""):
        language = _BY_TAG.get(tag.split("-", 1)[0])
        if language is not None:
            return language
    return DEFAULT


def _by_preference(header: str) -> list[str]:
    ranked: list[tuple[float, int, str]] = []
    for position, item in enumerate(header[:MAX_ACCEPT_LANGUAGE].split(",")):
        tag, _, params = item.strip().partition(";")
        quality = 1.0
        name, _, value = params.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                quality = float(value)
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            ranked.append((-quality, position, tag.strip().lower()))
    return [tag for _, _, tag in sorted(ranked)]
