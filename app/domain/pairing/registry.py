"""The pairing systems, registered by name with what each can do (``interface.Capabilities``).

Adding a system is adding its package and one line here.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.domain.pairing import dyp, lim, nearest
from app.domain.pairing.by_standings import by_standings
from app.domain.pairing.dutch import round as dutch
from app.domain.pairing.interface import Capabilities, Colours, System
from app.domain.types import PairingSystem

SYSTEMS: Mapping[PairingSystem, System] = MappingProxyType(
    {
        PairingSystem.NEAREST: System(
            PairingSystem.NEAREST,
            by_standings(nearest.pair_round),
            Capabilities(
                groups=True,
                colours=Colours.BALANCE,
                absolute_criteria=False,
            ),
        ),
        PairingSystem.LIM: System(
            PairingSystem.LIM,
            by_standings(lim.pair_round),
            Capabilities(
                groups=True,
                colours=Colours.BALANCE,
                absolute_criteria=False,
            ),
        ),
        PairingSystem.DUTCH: System(
            PairingSystem.DUTCH,
            dutch.pair_round,
            Capabilities(
                groups=False,
                colours=Colours.FIDE,
                absolute_criteria=True,
                fide_numbers=True,
            ),
        ),
        PairingSystem.DYP: System(
            PairingSystem.DYP,
            dyp.pair_round,
            Capabilities(
                groups=False,
                colours=Colours.RANK,
                absolute_criteria=False,
                drawn_partners=True,
            ),
        ),
    }
)
