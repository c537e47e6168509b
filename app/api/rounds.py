"""/v1/tournaments/{id}/rounds: generate the next Swiss round or pair it by hand, pair the latest
again by hand or undo it; list, read."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Header, Path, Query, Request, Response, status

from app.api.deps import (
    OrganizerDep,
    OrganizerReadDep,
    ReadCacheDep,
    SessionDep,
    TournamentDep,
    TournamentId,
    matches_tag,
)
from app.api.responses import READ, WRITE, problems
from app.api.routing import CommittingRoute
from app.api.schemas import HandPairingWrite
from app.domain.deadline import Deadline
from app.domain.manual_rounds import HandPairing
from app.domain.pairing_checks import Board
from app.domain.types import PlayerId
from app.errors import NotModified, RoundNotFound
from app.inputs import MAX_INTEGER
from app.pages.i18n import Language, choose_language
from app.read_models import RoundExplanationRead, RoundRead
from app.services import access, explanations, rounds, storage, views
from app.settings import Settings

PREVIEW = problems(401, 403, 404, 409, 503)
# `{number:int}` in the paths below: digits only, so `…/rounds/preview` is not read as a round
# number (a GET or DELETE there is a 405 naming POST, not a 422).
RoundNumberPath = Annotated[int, Path(ge=1, le=MAX_INTEGER, description="Round number")]
router = APIRouter(
    prefix="/v1/tournaments/{tournament_id}/rounds", tags=["rounds"], route_class=CommittingRoute
)


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    operation_id="rounds-generate",
    summary="Generate the next Swiss round",
    response_model=RoundRead,
    responses=WRITE,
)
def generate_round(
    write: OrganizerDep,
    session: SessionDep,
    request: Request,
    body: HandPairingWrite | None = None,
) -> RoundRead:
    """Without a body, paired by the tournament's system: all groups at once in the group
    variant; 503 `pairing_timeout` when the pairing needs more CPU time than
    `SVIZZERA_PAIRING_TIMEOUT` or lasts longer than `SVIZZERA_PAIRING_WALL_TIMEOUT`.

    With a body, paired by hand as given (`manual: true`): every player of the round on one
    board or on the bye (else 422 `pairing_players_invalid`, listing `missing`, `twice`,
    `unknown`, `withdrawn`, …); a rule broken with severity `error` and not named in `accept`
    is 409 `pairing_rules_broken` with the `checks`. 409 `round_incomplete` while results are
    missing, either way."""
    if body is not None:
        tournament, swiss_round = rounds.pair_by_hand(session, write, hand_pairing(body))
        return views.round_(tournament, swiss_round)
    settings: Settings = request.app.state.settings
    # Made here, in the thread that pairs: its budget is this thread's CPU time.
    deadline = Deadline.after(settings.pairing_timeout, wall_seconds=settings.pairing_wall_timeout)
    tournament, swiss_round = rounds.generate(session, write, deadline=deadline)
    return views.round_(tournament, swiss_round)


@router.post(
    "/preview",
    operation_id="rounds-preview",
    summary="Preview the next Swiss round",
    response_model=RoundRead,
    responses=PREVIEW,
)
def preview_round(header: OrganizerReadDep, session: SessionDep, request: Request) -> RoundRead:
    """The round `POST …/rounds` would generate now, match ids included, with nothing saved or
    emitted: generating next, with nothing changed, gives this round. The organizer's; no lock
    is taken. Same errors as generating (409 `round_incomplete`, 503 `pairing_timeout`, …)."""
    settings: Settings = request.app.state.settings
    # Made here, in the thread that pairs: its budget is this thread's CPU time.
    deadline = Deadline.after(settings.pairing_timeout, wall_seconds=settings.pairing_wall_timeout)
    tournament, swiss_round = rounds.preview(session, header.id, deadline=deadline)
    return views.round_(tournament, swiss_round)


@router.put(
    "/{number:int}/pairing",
    operation_id="rounds-pairing-replace",
    summary="Pair the latest round again by hand",
    response_model=RoundRead,
    responses=WRITE,
)
def replace_pairing(
    number: RoundNumberPath, body: HandPairingWrite, write: OrganizerDep, session: SessionDep
) -> RoundRead:
    """Replace the latest Swiss round's boards and byes while none of its results is recorded
    (409 `round_has_results`; an earlier round: 409 `round_locked`). Checked as a round paired
    by hand (422 `pairing_players_invalid`, 409 `pairing_rules_broken` unless `accept` names
    the rules). A board as it was keeps its match; `round.paired_manually` is emitted. A late
    entrant added after the round was paired may be placed in it (typically against the
    player who had the bye)."""
    tournament, swiss_round = rounds.repair(session, write, number, hand_pairing(body))
    return views.round_(tournament, swiss_round)


def hand_pairing(body: HandPairingWrite) -> HandPairing:
    return HandPairing(
        tuple(Board(PlayerId(b.home), PlayerId(b.away)) for b in body.boards),
        tuple(PlayerId(p) for p in body.byes),
        frozenset(body.accept),
    )


@router.delete(
    "/{number:int}",
    status_code=status.HTTP_204_NO_CONTENT,
    operation_id="rounds-undo",
    summary="Undo the latest round",
    responses=WRITE,
)
def undo_round(number: RoundNumberPath, write: OrganizerDep, session: SessionDep) -> Response:
    """Take back the latest Swiss round, generated too early, while none of its results is
    recorded (409 `round_has_results`; an earlier round: 409 `round_locked`). Its matches are
    deleted and `round.undone` is emitted; generate it again when ready."""
    rounds.undo(session, write, number)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "",
    operation_id="rounds-list",
    summary="List rounds",
    response_model=list[RoundRead],
    responses=READ,
)
def list_rounds(header: TournamentDep, session: SessionDep) -> list[RoundRead]:
    """Every Swiss round so far, first to latest, with matches, byes and pairing notes."""
    tournament = storage.load(session, header.id)
    return [views.round_(tournament, r) for r in tournament.rounds]


@router.get(
    "/{number:int}",
    operation_id="rounds-read",
    summary="Read a round",
    response_model=RoundRead,
    responses=READ,
)
def read_round(
    number: RoundNumberPath,
    header: TournamentDep,
    session: SessionDep,
) -> RoundRead:
    """One round: its matches (with results), byes, rematches and pairing paths."""
    tournament = storage.load(session, header.id)
    if number > len(tournament.rounds):
        raise RoundNotFound(
            f"round {number} has not been generated: GET …/rounds lists the rounds so far"
        )
    return views.round_(tournament, tournament.rounds[number - 1])


@router.get(
    "/{number:int}/explanation",
    operation_id="rounds-explanation",
    summary="Why a round is paired as it is",
    response_model=RoundExplanationRead,
    responses=problems(304, 404, 409),  # 409 not_for_dyp: a DYP round has no explanation
)
def read_explanation(
    number: RoundNumberPath,
    tournament_id: TournamentId,
    session: SessionDep,
    cache: ReadCacheDep,
    lang: Annotated[
        Language | None,
        Query(description="The sentences' language; default: from Accept-Language, else en"),
    ] = None,
    accept_language: Annotated[str | None, Header(include_in_schema=False)] = None,
    if_none_match: Annotated[str | None, Header(description="An ETag from an earlier read")] = None,
) -> Response:
    """For every board and bye, the steps of the system's rules that placed them (rule code,
    article, players, facts) with a sentence in `lang`; and the steps that shaped the whole
    round. Kept with the round when it was generated (a round generated before then reads
    `round.not_explained`). Public like the round; the ETag is the version and the language."""
    language = choose_language(lang, accept_language)
    header = access.read_header(session, tournament_id)
    tag = f'"{header.version}-{language}"'
    if if_none_match is not None and matches_tag(if_none_match, tag):
        raise NotModified(tag)

    def render() -> bytes:
        return explanations.read(session, header.id, number, language)

    body = cache.get_or_render((header.id, header.version, "explanation", number, language), render)
    return Response(
        body,
        media_type="application/json",
        headers={"ETag": tag, "Vary": "Accept-Language"},
    )
