"""The pages' QR codes decode to the text they were made from (read back with zxing-cpp)."""

from __future__ import annotations

import re

import pytest
import zxingcpp
from PIL import Image

from app.pages.qr import qr_svg

PIXELS_PER_MODULE = 8


def rasterize(svg: str) -> Image.Image:
    """Draws segno's SVG path (``M``/``m`` moves, ``h`` runs one module high) as an image."""
    size = int(re.search(r'viewBox="0 0 (\d+) \d+"', svg).group(1))  # type: ignore[union-attr]
    path = re.search(r'class="qrline" stroke="#000" d="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    image = Image.new("L", (size * PIXELS_PER_MODULE, size * PIXELS_PER_MODULE), 255)
    x = y = 0.0
    for command, numbers in re.findall(r"([MmHh])([-\d. ]+)", path):
        values = [float(v) for v in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            end = values[0] if command == "H" else x + values[0]
            row = int(y)
            for column in range(int(x), int(end)):
                image.paste(
                    0,
                    (
                        column * PIXELS_PER_MODULE,
                        row * PIXELS_PER_MODULE,
                        (column + 1) * PIXELS_PER_MODULE,
                        (row + 1) * PIXELS_PER_MODULE,
                    ),
                )
            x = end
    return image


@pytest.mark.parametrize(
    "text",
    ["http://192.168.1.20:8000/live/3f9c2a", "https://club.example/live/x?lang=it&view=tv"],
)
def test_qr_code_decodes_to_its_text(text: str) -> None:
    (decoded,) = zxingcpp.read_barcodes(rasterize(qr_svg(text, label="Live page")))
    assert decoded.text == text
    assert decoded.format == zxingcpp.BarcodeFormat.QRCode


def test_qr_code_is_sized_by_css_and_named_for_screen_readers() -> None:
    svg = qr_svg("http://x/live/1", label='Scan "me" <now>')
    assert svg.startswith('<svg role="img" aria-label="Scan &#34;me&#34; &lt;now&gt;" viewBox=')
    assert "width=" not in svg.split(">", 1)[0]
