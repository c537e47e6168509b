"""A round's explanation as read (``GET …/rounds/{n}/explanation``): the stored steps, the
players named, each step in words (``app.pages.explanations``)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app import read_models as s
from app.domain.explanation import (
    MANUAL,
    NO_EXPLANATION,
    NOT_EXPLAINED,
    RoundExplanation,
    Step,
    without_steps,
)
from app.domain.manual_rounds import EXPLAINED_AT, MANUAL_PATH
from app.domain.matches import SwissRound
from app.domain.tournament import Tournament
from app.domain.types import PlayerId
from app.errors import RoundNotFound
from app.pages.explanations import sentence
from app.pages.i18n import Language
from app.services import storage

NOT_EXPLAINED_REF = "docs/explanations.md"
MANUAL_REF = EXPLAINED_AT
"""Where a round paired by hand points to (``docs/rules.md``, "Pairing by hand")."""


def read(session: Session, tournament_id: str, number: int, language: Language) -> bytes:
    """The explanation of round ``number`` as JSON, in ``language``; a round generated before
    explanations were kept reads as ``round.not_explained``."""
    tournament = storage.load(session, tournament_id)
    tournament.refuse_drawn_partners("the explanation")
    if not 1 <= number <= len(tournament.rounds):
        raise RoundNotFound(
            f"round {number} has not been generated: GET …/rounds lists the rounds so far"
        )
    stored = storage.load_explanation(session, tournament_id, number)
    system = tournament.settings.pairing.value
    explanation = _as_played(tournament, tournament.rounds[number - 1], stored, system)
    names = {pid: p.name for pid, p in tournament.players.items()}
    body = s.RoundExplanationRead(
        round=number,
        system=explanation.system or system,
        language=language,
        steps=[_step(st, names, language, on_board=False) for st in explanation.round_steps],
        placements=[
            s.PlacementRead(
                board=p.board,
                players=[_player(pid, names) for pid in p.players],
                steps=[_step(st, names, language, on_board=True) for st in p.steps],
            )
            for p in explanation.placements
        ],
    )
    return body.model_dump_json().encode()


def _as_played(
    tournament: Tournament, swiss_round: SwissRound, stored: RoundExplanation, system: str
) -> RoundExplanation:
    """The stored explanation if it still describes the round: a round paired by hand (its
    path says ``manual``, or its boards and byes are no longer the ones explained) reads
    ``round.manual``; one generated before explanations were kept, ``round.not_explained``."""
    if any(MANUAL_PATH in path for _, path in swiss_round.paths):
        return without_steps(system, MANUAL, MANUAL_REF)
    if stored == NO_EXPLANATION:
        return without_steps(system, NOT_EXPLAINED, NOT_EXPLAINED_REF)
    boards = {
        m.board: frozenset((m.home, m.away)) for m in tournament.round_matches(swiss_round.number)
    }
    explained = {p.board: frozenset(p.players) for p in stored.placements if p.board is not None}
    byes = sorted(p.players[0] for p in stored.placements if p.board is None)
    if explained != boards or byes != sorted(swiss_round.byes):
        return without_steps(system, MANUAL, MANUAL_REF)
    return stored


def _player(pid: PlayerId, names: dict[PlayerId, str]) -> s.ExplainedPlayer:
    return s.ExplainedPlayer(id=pid, name=names.get(pid, f"#{pid}"))


def _step(
    step: Step, names: dict[PlayerId, str], language: Language, *, on_board: bool
) -> s.ExplanationStepRead:
    return s.ExplanationStepRead(
        rule=step.rule,
        ref=step.ref,
        players=[_player(pid, names) for pid in step.players],
        facts={name: _fact(name, value) for name, value in step.facts},
        text=sentence(step, names, language, on_board=on_board),
    )


def _fact(name: str, value: int | str) -> float | int | str:
    """``…_score`` facts are half-points inside, points outside (``2.5``)."""
    if name.endswith("score") and isinstance(value, int):
        return value // 2 if value % 2 == 0 else value / 2
    return value
