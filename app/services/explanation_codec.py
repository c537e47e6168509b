"""A round's explanation as stored in the ``round.explanation`` JSON column, and back.

``{"system": …, "round_steps": [step, …], "placements": [{"board": n | null, "players": […],
"steps": [step, …]}]}``, a step being ``{"rule", "ref", "players", "facts": {name: value}}``
(facts in their order). A round without an explanation (``NO_EXPLANATION``) is stored as null.
"""

from __future__ import annotations

from typing import Any

from app.domain.explanation import NO_EXPLANATION, Placement, RoundExplanation, Step
from app.domain.types import PlayerId


def to_json(explanation: RoundExplanation) -> dict[str, Any] | None:
    if explanation == NO_EXPLANATION:
        return None
    return {
        "system": explanation.system,
        "round_steps": [_step(s) for s in explanation.round_steps],
        "placements": [
            {"board": p.board, "players": list(p.players), "steps": [_step(s) for s in p.steps]}
            for p in explanation.placements
        ],
    }


def from_json(data: dict[str, Any] | None) -> RoundExplanation:
    if data is None:
        return NO_EXPLANATION
    return RoundExplanation(
        system=data["system"],
        round_steps=tuple(_from_step(s) for s in data["round_steps"]),
        placements=tuple(
            Placement(
                p["board"],
                tuple(PlayerId(pid) for pid in p["players"]),
                tuple(_from_step(s) for s in p["steps"]),
            )
            for p in data["placements"]
        ),
    )


def _step(step: Step) -> dict[str, Any]:
    return {
        "rule": step.rule,
        "ref": step.ref,
        "players": list(step.players),
        "facts": dict(step.facts),
    }


def _from_step(data: dict[str, Any]) -> Step:
    return Step(
        data["rule"],
        data["ref"],
        tuple(PlayerId(pid) for pid in data["players"]),
        tuple(data["facts"].items()),
    )
