"""What the HTML pages (``/print``, ``/live``) share: the language, the ETag, the headers; and
what the CSV exports share: the separator."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, Header, Query
from fastapi.responses import HTMLResponse
from sqlalchemy.orm import Session

from app.api.deps import matches_tag
from app.errors import NotModified
from app.pages.i18n import DEFAULT, Language, choose_language
from app.printing.csv_export import SEPARATOR_BY_LANGUAGE, Separator
from app.services import access


def page_language(
    lang: Annotated[
        Language | None, Query(description="The page's language; default: from Accept-Language")
    ] = None,
    accept_language: Annotated[str | None, Header(include_in_schema=False)] = None,
) -> Language:
    return choose_language(lang, accept_language)


LanguageDep = Annotated[Language, Depends(page_language)]
IfNoneMatch = Annotated[str | None, Header(description="An ETag from an earlier read")]


def csv_separator(
    sep: Annotated[
        Separator | None,
        Query(
            description="`comma` (cells split on `,`, decimals as `4.5`) or `semicolon` (on `;`, "
            "decimals as `4,5`, as spreadsheets with a decimal comma read it); default: by `lang`"
        ),
    ] = None,
    lang: Annotated[
        Language | None,
        Query(
            description="The spreadsheet's language when `sep` is not given: `it`, `sk` and "
            "`cs` give `semicolon`, `en` (the default) `comma`"
        ),
    ] = None,
) -> Separator:
    """A CSV export's separator (and decimal mark): as asked, else by the language."""
    return sep or SEPARATOR_BY_LANGUAGE[lang or DEFAULT]


CsvSeparatorDep = Annotated[Separator, Depends(csv_separator)]


def read_page(
    session: Session, tournament_id: str, if_none_match: str | None, *variant: str
) -> tuple[access.Header, str]:
    """The tournament's header (or 404) and the page's ETag: the version and what else the page
    depends on (language, mode); 304 when ``If-None-Match`` names it."""
    header = access.read_header(session, tournament_id)
    tag = '"' + "-".join((str(header.version), *variant)) + '"'
    if if_none_match is not None and matches_tag(if_none_match, tag):
        raise NotModified(tag)
    return header, tag


def new_nonce() -> str:
    return secrets.token_urlsafe(16)


def html_page(html: str | bytes, *, tag: str, policy: str) -> HTMLResponse:
    """An HTML page with its ETag, ``Vary: Accept-Language`` and the Content-Security-Policy."""
    return HTMLResponse(
        html,
        headers={
            "ETag": tag,
            "Vary": "Accept-Language",
            "Content-Security-Policy": policy,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "same-origin",
        },
    )
