"""Pairing systems, one module each, registered by name."""

from __future__ import annotations

from collections.abc import Mapping

from app.domain.pairing import lim, nearest
from app.domain.pairing.base import PairFunction
from app.domain.types import PairingSystem

PAIRING_SYSTEMS: Mapping[PairingSystem, PairFunction] = {
    PairingSystem.NEAREST: nearest.pair_round,
    PairingSystem.LIM: lim.pair_round,
}
