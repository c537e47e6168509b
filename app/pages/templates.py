"""The Jinja2 environment of the pages, one per language (gettext installed in each)."""

from __future__ import annotations

from functools import cache

import jinja2
from markupsafe import Markup

from app.pages.i18n import Language, translations
from app.pages.view import per_match_text, points_text


def css_string(text: str) -> Markup:
    """``text`` as a quoted CSS string for a ``<style>`` element: letters, digits and spaces as
    they are, everything else as a hex escape, so no quote, backslash or ``</style>`` survives."""
    body = "".join(c if c.isalnum() or c == " " else f"\\{ord(c):x} " for c in text)
    return Markup(f'"{body}"')


@cache
def environment(language: Language) -> jinja2.Environment:
    """Built on first use of ``language``, once; the templates ship inside the ``app`` package.

    Templates translate with ``_("…")`` (new-style gettext: the result is escaped, ``%(name)s``
    placeholders are filled by keyword) and ``{% trans %}`` blocks.
    """
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("app", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(translations(language), newstyle=True)  # type: ignore[attr-defined]
    env.filters["points"] = points_text
    env.filters["per_match"] = per_match_text
    env.filters["css_string"] = css_string
    env.globals["language"] = language
    return env
