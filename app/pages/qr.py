"""QR codes for the pages, drawn on the server as inline SVG (segno; no external service).

One way for every page to show a code: the live page's own address on the TV, the print page's
address, a board's result form on a table card.
"""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(text: str, *, label: str) -> Markup:
    """An inline ``<svg>`` of ``text`` as a QR code (error correction M, quiet zone of 4).

    It has no fixed size (a ``viewBox`` only), so CSS sizes it; ``label`` becomes its
    accessible name (``role="img"`` and ``aria-label``).
    """
    code = segno.make(text, error="m", micro=False)
    svg = code.svg_inline(scale=1, border=4, omitsize=True, dark="#000", light="#fff")
    opening = Markup('<svg role="img" aria-label="{}"').format(label)
    return opening + Markup(svg.removeprefix("<svg"))
