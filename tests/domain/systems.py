"""The pairing systems the tests of one player against one run over: every registered system
but those that draw partners (DYP, ``test_dyp_round.py``), for which pairing by hand, forbidden
pairs and the check are refused and a board has four players."""

from __future__ import annotations

from app.domain.pairing.registry import SYSTEMS
from app.domain.types import PairingSystem

ONE_AGAINST_ONE = [s for s in PairingSystem if not SYSTEMS[s].capabilities.drawn_partners]
