"""The printed page's date and running foot: the rendering date, in the page's language."""

from __future__ import annotations

from datetime import date

import pytest

from app.pages.i18n import Language
from app.printing import render_print_page
from tests.api.helpers import create, play_round
from tests.client import ApiClient
from tests.printing.tournaments import standard_evening

DAY = date(2026, 12, 1)


@pytest.mark.parametrize(
    ("language", "under_title", "foot"),
    [
        ("en", "Printed on December 1, 2026", r'"Cup \b7  December 1\2c  2026"'),
        ("it", "Stampato il 1 dicembre 2026", r'"Cup \b7  1 dicembre 2026"'),
        ("sk", "Vytlačené 1. decembra 2026", r'"Cup \b7  1\2e  decembra 2026"'),
        ("cs", "Vytištěno 1. prosince 2026", r'"Cup \b7  1\2e  prosince 2026"'),
    ],
)
def test_the_date_is_written_under_the_title_and_at_the_foot_of_every_page(
    language: Language, under_title: str, foot: str
) -> None:
    page = render_print_page(standard_evening(), name="Cup", language=language, today=DAY)

    assert f'<span class="printed">· {under_title}</span>' in page
    assert f"@bottom-left {{\n      content: {foot};" in page
    assert 'content: counter(page) " / " counter(pages);' in page


def test_a_name_cannot_leave_the_css_string_of_the_foot() -> None:
    name = '"; } </style><script>alert(1)</script> \\'
    page = render_print_page(standard_evening(), name=name, today=DAY)

    assert page.count("</style>") == 1
    assert "<script" not in page
    foot = page[page.index("@bottom-left {") : page.index("@bottom-right")]
    assert r'content: "\22 \3b  \7d  \3c \2f style\3e \3c script\3e alert\28 1\29 ' in foot


def test_the_served_page_prints_today_and_its_etag_changes_with_the_date(
    client: ApiClient,
) -> None:
    t = create(client, 6)
    play_round(client, t)

    before = date.today()
    page = client.get(f"/v1/tournaments/{t.id}/print?lang=it")
    after = date.today()  # the same day, unless the request ran across midnight

    assert page.status_code == 200
    today = before if page.headers["etag"].endswith(f'-it-{before.isoformat()}"') else after
    assert page.headers["etag"].endswith(f'-it-{today.isoformat()}"'), page.headers["etag"]
    written = f"Stampato il {today.day} " in page.text and str(today.year) in page.text
    assert written, page.text[:2000]
