"""New tournament ids: URL-safe, 16 characters, never read as an option by a command line."""

from __future__ import annotations

import re

from app.inputs import TOURNAMENT_ID
from app.services.tournaments import new_tournament_id


def test_an_id_never_starts_with_a_dash_and_is_a_valid_id() -> None:
    # token_urlsafe alone starts with "-" once in 64 ids: 4,000 would show it (p < 1e-27).
    ids = [new_tournament_id() for _ in range(4_000)]
    assert not [tid for tid in ids if tid.startswith("-")]
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{16}", tid) for tid in ids)
    assert all(re.fullmatch(TOURNAMENT_ID, tid) for tid in ids)
    assert len(set(ids)) == len(ids)
