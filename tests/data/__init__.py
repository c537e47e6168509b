"""Reference data the tests read: ``dutch/`` holds the FIDE Dutch tournaments (see its README)."""

from __future__ import annotations

from pathlib import Path

DUTCH = Path(__file__).parent / "dutch"
DUTCH_FILES = sorted(DUTCH.glob("dutch_*.trf"))
"""Every reference tournament, the 1,000-player one (benchmark material) last."""


def read_text(path: Path) -> str:
    """A TRF as stored: ASCII, lines ended by CR (``newline=""`` keeps them)."""
    with path.open(encoding="ascii", newline="") as file:
        return file.read()
