"""The HTML pages: the club-room live page and the language machinery it shares with the
printed page (``app/printing``)."""
