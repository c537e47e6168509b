"""Who may still meet whom in ``lim``: each player's unmet opponents, as a bit set of ranks.

A pair has met if either player's record lists the other. The sets are built at every round
for the whole field, so their cost must not grow with the rounds played: each row is summed
in C from precomputed bits, over the opponents while a player has met fewer than half the
field and over the players not met after that; the "either record" closure walks the records
while they are sparse and is one bit-matrix transpose once they are dense (a long override).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.domain.pairing.base import PairingHistory
from app.domain.pairing.matching import bits
from app.domain.types import PlayerId

Unmet = Sequence[int]
"""``unmet[r]``: the ranks ``r`` has not met, as a bit set (``r`` itself excluded)."""

DENSE = 64
"""Past an average of ``size / DENSE`` opponents a player, the transpose is the cheaper closure."""

_NONE: frozenset[PlayerId] = frozenset()


def unmet_rows(players: Sequence[PlayerId], history: PairingHistory) -> list[int]:
    """Each player's unmet opponents among ``players`` (ranks: positions in ``players``)."""
    size = len(players)
    bit = {pid: 1 << r for r, pid in enumerate(players)}
    field = frozenset(bit)
    everyone = (1 << size) - 1
    met: list[int] = []
    recorded = 0
    for r, pid in enumerate(players):
        opponents = history.opponents.get(pid, _NONE)
        recorded += len(opponents)
        if 2 * len(opponents) <= size:
            row = sum(map(bit.__getitem__, field.intersection(opponents)))
        else:
            row = everyone & ~sum(map(bit.__getitem__, field.difference(opponents)))
        met.append(row & ~(1 << r))
    if DENSE * recorded > size * size:
        met = [row | column for row, column in zip(met, transposed(met), strict=True)]
    else:
        for r, row in enumerate(met):
            for other in bits(row):
                if not met[other] >> r & 1:  # only the one side's record lists the pair
                    met[other] |= 1 << r
    return [everyone & ~row & ~(1 << r) for r, row in enumerate(met)]


def without(rows: Unmet, rank: int) -> list[int]:
    """The rows of every player but ``rank``, ranks above it shifted down by one."""
    low = (1 << rank) - 1
    return [(row & low) | (row >> (rank + 1) << rank) for r, row in enumerate(rows) if r != rank]


def transposed(rows: Sequence[int]) -> list[int]:
    """The bit matrix ``rows`` (row ``r``, column ``c``: bit ``c`` of ``rows[r]``) transposed.

    The rows are packed into one integer of ``width`` × ``width`` bits (``width`` a power of
    two); at each scale ``k`` = width/2, …, 1 every 2k × 2k block swaps its off-diagonal k × k
    blocks with one masked exchange, all in C.
    """
    size = len(rows)
    width = 8
    while width < size:
        width *= 2
    row_bytes = width // 8
    packed = int.from_bytes(
        b"".join(row.to_bytes(row_bytes, "little") for row in rows)
        + bytes(row_bytes * (width - size)),
        "little",
    )
    k = width // 2
    while k:
        shift = k * (width - 1)
        swapped = ((packed >> shift) ^ packed) & _upper_right(width, k)
        packed ^= swapped ^ (swapped << shift)
        k //= 2
    data = packed.to_bytes(row_bytes * width, "little")
    return [
        int.from_bytes(data[r * row_bytes : (r + 1) * row_bytes], "little") for r in range(size)
    ]


def _upper_right(width: int, k: int) -> int:
    """The cells (r, c) with r mod 2k < k and c mod 2k >= k of a width × width bit matrix."""
    if k >= 8:
        row = (bytes(k // 8) + b"\xff" * (k // 8)) * (width // (2 * k))
    else:
        row = bytes([{1: 0xAA, 2: 0xCC, 4: 0xF0}[k]]) * (width // 8)
    empty = bytes(width // 8)
    return int.from_bytes((row * k + empty * k) * (width // (2 * k)), "little")
