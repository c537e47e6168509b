"""Board codes: the short code a player types (or scans) to report a board's result.

A code is derived from the tournament's ``report_key`` (256 random bits, kept on the server)
and the board itself (its match, round and players), so nothing about codes is stored, a
reprint gives the same codes, and a board paired again gets a new one. Eight characters of an
alphabet without look-alikes (no 0/O, 1/I/L) give about 40 bits: with the report quota
(``app.services.quotas``) guessing one is hopeless. Compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

from app.domain.matches import Match

ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
LENGTH = 8


def new_key() -> str:
    return secrets.token_hex(32)


def code_of(key: str, match: Match) -> str:
    """The board's code, ``LENGTH`` characters of ``ALPHABET``."""
    board = f"{match.id}:{match.stage.value}:{match.round}:{match.home}:{match.away}"
    digest = hmac.new(bytes.fromhex(key), board.encode(), hashlib.sha256).digest()
    number = int.from_bytes(digest, "big")
    chars = []
    for _ in range(LENGTH):
        number, index = divmod(number, len(ALPHABET))
        chars.append(ALPHABET[index])
    return "".join(chars)


def shown(code: str) -> str:
    """As printed: two groups of four (``K7QM-4TXA``)."""
    return f"{code[:4]}-{code[4:]}"


def normalized(typed: str) -> str:
    """What a player typed, as compared: no spaces or dashes, upper case."""
    return "".join(c for c in typed.upper() if c not in " -\t")


def matches(key: str, match: Match, typed: str) -> bool:
    return hmac.compare_digest(code_of(key, match).encode(), normalized(typed).encode())
