"""The catalogues in app/locale: complete, current, and consistent in their placeholders."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from app.pages.i18n import LANGUAGES, Language, translations

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "app" / "locale"
TRANSLATED = [lang for lang in LANGUAGES if lang != "en"]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


def extracted() -> set[str | tuple[str, str]]:
    """What the templates and the ``N_``-marked strings ask for, as ``babel.cfg`` says."""
    method_map = [("**.py", "python"), ("templates/**.html", "jinja2")]
    options = {"templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    found: set[str | tuple[str, str]] = set()
    keywords = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None}
    for _, _, message, _, _ in extract_from_dir(
        ROOT / "app", method_map, options, keywords=keywords
    ):
        found.add(message if isinstance(message, str) else (message[0], message[1]))
    return found


def catalogue(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as source:
        return read_po(source, locale=language)


def ids(cat: Catalog) -> set[str | tuple[str, str]]:
    return {m.id if isinstance(m.id, str) else (m.id[0], m.id[1]) for m in cat if m.id}


def test_the_template_lists_exactly_what_the_code_asks_for() -> None:
    asked = extracted()
    assert len(asked) > 80
    assert ids(catalogue(LOCALE / "messages.pot")) == asked


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    cat = catalogue(LOCALE / language / "LC_MESSAGES" / "messages.po", language)
    assert ids(cat) == extracted(), "run pybabel update (docs/live.md, Languages)"
    assert cat.num_plurals == 3  # one, few/many, other
    for message in cat:
        if not message.id:
            continue
        assert not message.fuzzy, message.id
        sources = [message.id] if isinstance(message.id, str) else list(message.id)
        targets = [message.string] if isinstance(message.string, str) else list(message.string)
        assert len(targets) == (1 if isinstance(message.id, str) else cat.num_plurals)
        wanted = set().union(*(PLACEHOLDER.findall(s) for s in sources))
        for target in targets:
            assert target.strip(), (language, message.id)
            assert set(PLACEHOLDER.findall(target)) <= wanted | {"num"}, (language, target)
            assert set(PLACEHOLDER.findall(target)) >= wanted - {"num"}, (language, target)
        assert not list(message.check(cat)), (language, message.id)


def test_czech_and_slovak_plurals_take_three_forms() -> None:
    def rounds(language: Language, n: int) -> str:
        text: str = translations(language).ngettext("%(num)d round", "%(num)d rounds", n)
        return text % {"num": n}

    assert [rounds("cs", n) for n in (1, 3, 5)] == ["1 kolo", "3 kola", "5 kol"]
    assert [rounds("sk", n) for n in (1, 3, 5)] == ["1 kolo", "3 kolá", "5 kôl"]
    assert [rounds("it", n) for n in (1, 3)] == ["1 turno", "3 turni"]
    assert [rounds("en", n) for n in (1, 3)] == ["1 round", "3 rounds"]
