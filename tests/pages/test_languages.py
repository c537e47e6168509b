"""The pages' language: ``?lang=``, else ``Accept-Language``, else English; the print page too."""

from __future__ import annotations

import re

import pytest

from app.domain.types import Tiebreak
from app.pages.i18n import choose_language
from app.printing import render_print_page
from tests.api.helpers import create, play_round
from tests.client import ApiClient
from tests.printing.tournaments import standard_evening


@pytest.mark.parametrize(
    ("asked", "header", "chosen"),
    [
        ("cs", "it", "cs"),
        (None, "sk-SK,sk;q=0.9,en;q=0.8", "sk"),
        (None, "de-CH, cs;q=0.5, it;q=0.8", "it"),
        (None, "fr, de", "en"),
        (None, "IT", "it"),
        (None, "it;q=0, cs", "cs"),
        (None, "it;q=abc, sk;q=0.2", "sk"),
        (None, "", "en"),
        (None, None, "en"),
        (None, "x" * 10_000 + ", it", "en"),  # read only so far
    ],
)
def test_the_language_is_chosen_by_query_then_header(
    asked: str | None, header: str | None, chosen: str
) -> None:
    assert choose_language(asked, header) == chosen  # type: ignore[arg-type]


# What each language calls the standings, the final phase, a round and the bye of a round.
WORDS = {
    "en": ("Standings", "Final phase", "Round 1", "Bye: "),
    "it": ("Classifica", "Fase finale", "Turno 1", "Riposo: "),
    "sk": ("Poradie", "Finálová fáza", "Kolo 1", "Voľno: "),
    "cs": ("Pořadí", "Finálová fáze", "Kolo 1", "Volno: "),
}


@pytest.mark.parametrize("language", list(WORDS))
def test_the_print_page_speaks_each_language(language: str) -> None:
    page = render_print_page(standard_evening(players=15), name="Cup", language=language)  # type: ignore[arg-type]

    assert f'<html lang="{language}">' in page
    for word in WORDS[language]:
        assert word in page, word
    if language != "en":
        for english in ("Standings", "Final ranking", "Tiebreak in use", "to be played", "Winner"):
            assert english not in page, english


def test_the_print_page_negotiates_and_allows_only_its_own_style(client: ApiClient) -> None:
    t = create(client, 6)
    play_round(client, t)
    url = f"/v1/tournaments/{t.id}/print"

    czech = client.get(url, headers={"Accept-Language": "cs-CZ,cs;q=0.9"})
    forced = client.get(url + "?lang=sk", headers={"Accept-Language": "cs"})

    assert '<html lang="cs">' in czech.text and "Pořadí" in czech.text
    assert '<html lang="sk">' in forced.text and "Poradie" in forced.text
    assert czech.headers["etag"] != forced.headers["etag"]
    assert czech.headers["vary"] == "Accept-Language"
    nonce = re.findall(r'<style nonce="([^"]+)">', czech.text)
    assert len(nonce) == 1 and len(nonce[0]) >= 16
    assert czech.headers["content-security-policy"].startswith(
        f"default-src 'none'; style-src 'nonce-{nonce[0]}';"
    )
    assert "<script" not in czech.text
    assert 'href="live?lang=cs"' in czech.text
    again = client.get(
        url, headers={"Accept-Language": "cs", "If-None-Match": czech.headers["etag"]}
    )
    assert again.status_code == 304


# "Tiebreak in use: …" with the tiebreak named in each language, never its API identifier.
G, P = Tiebreak.GOALS, Tiebreak.PROGRESSIVE
TIEBREAK_NAMES = {
    "en": ("Tiebreak in use: ", {G: "goals", P: "progressive score"}),
    "it": ("Spareggio in uso: ", {G: "gol", P: "punteggio progressivo"}),
    "sk": ("Pomocné hodnotenie: ", {G: "góly", P: "progresívne skóre"}),
    "cs": ("Pomocné hodnocení: ", {G: "góly", P: "progresivní skóre"}),
}


@pytest.mark.parametrize("language", list(TIEBREAK_NAMES))
@pytest.mark.parametrize("tiebreak", [Tiebreak.GOALS, Tiebreak.PROGRESSIVE])
def test_the_print_page_names_the_tiebreak_in_its_language(
    language: str, tiebreak: Tiebreak
) -> None:
    tournament = standard_evening(tiebreak=tiebreak)
    page = render_print_page(tournament, name="Cup", language=language)  # type: ignore[arg-type]

    label, names = TIEBREAK_NAMES[language]
    assert f"{label}{names[tiebreak]}</div>" in page
    if names[tiebreak] != tiebreak.value:
        assert f": {tiebreak.value}<" not in page


@pytest.mark.parametrize("language", list(TIEBREAK_NAMES))
def test_the_live_page_names_the_tiebreak_in_its_language(client: ApiClient, language: str) -> None:
    t = create(client, 6, tiebreak="progressive")
    play_round(client, t)

    page = client.get(f"/v1/tournaments/{t.id}/live?lang={language}").text

    label, names = TIEBREAK_NAMES[language]
    assert f"<strong>{label}{names[Tiebreak.PROGRESSIVE]}</strong>" in page
    assert ": progressive<" not in page
