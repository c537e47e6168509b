"""Every refusal the service gives, and the one table that turns it into an HTTP status.

Application errors (``AppError``) carry their status; domain errors (``app.domain.errors``) are
mapped by class in ``DOMAIN_STATUS``. One handler writes every 4xx as ``application/problem+json``
(RFC 9457) with a stable ``code``.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.db import is_busy
from app.domain import errors as domain
from app.domain.errors import PairingImpossible
from app.domain.manual_rounds import PairingPlayersInvalid, PairingRulesBroken
from app.domain.register import MergeRefused, TooManyAliases
from app.domain.reports import ResultAlreadyRecorded

logger = logging.getLogger("svizzera")
PROBLEM_JSON = "application/problem+json"
TYPE_BASE = "https://svizzera.example/problems/"


class AppError(Exception):
    """A refusal of the service itself (not of the tournament's rules)."""

    status = 400
    code = "bad_request"
    retry_after: int | None = None
    """Seconds to send as ``Retry-After`` (refusals that pass with time)."""

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class NotFound(AppError):
    status = 404
    code = "not_found"


class TournamentNotFound(NotFound):
    code = "tournament_not_found"

    def __init__(self, tournament_id: str) -> None:
        super().__init__(
            f"no tournament {tournament_id!r}: check the id (the one its creation answered; "
            "GET /v1/tournaments lists them)"
        )


class RoundNotFound(NotFound):
    code = "round_not_found"


class Unauthorized(AppError):
    status = 401
    code = "unauthorized"


class Forbidden(AppError):
    status = 403
    code = "forbidden"


class CrossOriginWrite(Forbidden):
    code = "cross_origin_write"


class PreconditionFailed(AppError):
    status = 412
    code = "precondition_failed"


class PayloadTooLarge(AppError):
    status = 413
    code = "payload_too_large"


class UnsupportedMediaType(AppError):
    status = 415
    code = "unsupported_media_type"


class InvalidValue(AppError):
    status = 422
    code = "validation_error"


class ForeignCursor(InvalidValue):
    """A ``cursor`` that no page of this service gave out (the code stays ``validation_error``)."""

    def __init__(self) -> None:
        super().__init__(
            "`cursor` is not one this service gave out: send the `next_cursor` of the page "
            "before, or leave it out to start from the first page"
        )


class UnknownQueryParameter(InvalidValue):
    code = "unknown_query_parameter"


class Conflict(AppError):
    status = 409
    code = "conflict"


class TokenNotFound(NotFound):
    code = "token_not_found"


class TooManyTokens(Conflict):
    code = "too_many_tokens"


class Busy(AppError):
    """A bounded wait ran out (a lock, a database connection, a statement): try again soon."""

    status = 503
    code = "busy"
    retry_after = 1


class TooManyRequests(AppError):
    """A quota of a public deployment (``app.services.quotas``, streams per worker)."""

    status = 429
    code = "too_many_requests"

    def __init__(self, detail: str, *, retry_after: int) -> None:
        super().__init__(detail)
        self.retry_after = max(1, retry_after)


class WebhookNotFound(NotFound):
    code = "webhook_not_found"


class WebhookDeliveryNotFound(NotFound):
    code = "webhook_delivery_not_found"


class WebhookUrlInvalid(InvalidValue):
    code = "webhook_url_invalid"


class WebhookUrlForbidden(InvalidValue):
    code = "webhook_url_forbidden"


class WrongBoardCode(Forbidden):
    code = "wrong_board_code"


class PlayerResultsOff(Conflict):
    code = "player_results_off"


class NotASwissBoard(Conflict):
    code = "not_a_swiss_board"


class ClubNotFound(NotFound):
    code = "club_not_found"

    def __init__(self, club_id: str) -> None:
        super().__init__(f"no club {club_id!r}: check the id (the one its creation answered)")


class ClubKeyNotFound(NotFound):
    code = "club_key_not_found"


class ClubPlayerNotFound(NotFound):
    code = "club_player_not_found"


class LastClubKey(Conflict):
    """Revoking the only live key would leave nobody able to run the club."""

    code = "last_club_key"


class TooManyClubKeys(Conflict):
    code = "too_many_club_keys"


class AmbiguousClubPlayer(Conflict):
    """A new name of a club tournament is the name or an alias of several register entries."""

    code = "ambiguous_club_player"


class RepeatedClubPlayer(InvalidValue):
    """Two players of one tournament would be one register entry."""

    code = "repeated_club_player"


class NotAClubTournament(InvalidValue):
    code = "not_a_club_tournament"


class TeamEntriesInClub(InvalidValue):
    code = "team_entries_in_club"


class SeasonNotFound(NotFound):
    code = "season_not_found"


class PlacePointsWithoutPlaces(InvalidValue):
    """A place-points table for a season that does not score by ``places``."""

    code = "place_points_without_places"


class SeasonFull(Conflict):
    """A season holds at most ``app.services.seasons.MAX_EVENINGS`` tournaments."""

    code = "season_full"


class NotModified(Exception):
    """``If-None-Match`` names the current version: answer 304 without a body."""

    def __init__(self, etag: str) -> None:
        super().__init__(etag)
        self.etag = etag


DOMAIN_STATUS: dict[type[domain.DomainError], int] = {
    domain.DomainError: 409,
    domain.InvalidSettings: 422,
    domain.TooManyPlayers: 422,
    domain.TooFewPlayers: 409,
    domain.DuplicateName: 409,
    domain.RepeatedName: 422,
    domain.UnknownPlayer: 404,
    domain.UnknownMatch: 404,
    domain.UnknownRound: 404,
    domain.UnknownGroup: 404,
    domain.WrongStatus: 409,
    domain.RegistrationClosed: 409,
    domain.RoundIncomplete: 409,
    domain.NotForDyp: 409,
    domain.NoMoreRounds: 409,
    domain.RoundLocked: 409,
    domain.RoundHasResults: 409,
    domain.ClockDurationRequired: 422,
    domain.WinnerRequired: 422,
    domain.InvalidResult: 422,
    domain.FinalPlayed: 409,
    domain.AlreadyWithdrawn: 409,
    domain.NotEnoughQualifiers: 409,
    domain.ByeNotAllowed: 422,
    domain.ForbiddenPairWithItself: 422,
    domain.DuplicateForbiddenPair: 409,
    domain.UnknownForbiddenPair: 404,
    domain.TooManyForbiddenPairs: 409,
    PairingImpossible: 409,
    PairingPlayersInvalid: 422,
    PairingRulesBroken: 409,
    ResultAlreadyRecorded: 409,
    domain.InvalidTrf: 422,
    domain.PairingTimeout: 503,
    MergeRefused: 409,
    TooManyAliases: 422,
}
"""The HTTP status of each domain refusal: 404 missing, 409 state conflict, 422 bad value,
503 a computation past its limit (the same request may pass on a quieter server)."""


HTTP_DETAILS = {
    "malformed_body": "the body could not be read: send JSON encoded in UTF-8",
    "not_found": "no such path: the API's paths are listed at /docs and /openapi.json",
}
"""Details for the refusals Starlette raises itself (its own texts say only what happened)."""


def domain_status(error: domain.DomainError) -> int:
    for cls in type(error).__mro__:
        if cls in DOMAIN_STATUS:
            return DOMAIN_STATUS[cls]
    return 409


def domain_fields(error: domain.DomainError) -> dict[str, Any]:
    """What a domain refusal adds to its body beyond the standard fields (``docs/api.md``):
    ``pairing_impossible`` names the players who cannot all be given an opponent, and the hard
    forbidden pairs in the way (``id`` null for a pair a team makes);
    ``pairing_players_invalid`` who is missing, twice, unknown, …; ``pairing_rules_broken``
    the checks and the rules refused."""
    if isinstance(error, PairingPlayersInvalid):
        found = error.problems
        return {
            "missing": list(found.missing),
            "twice": list(found.twice),
            "unknown": list(found.unknown),
            "withdrawn": list(found.withdrawn),
            "on_requested_bye": list(found.on_requested_bye),
            "across_groups": [list(pair) for pair in found.across_groups],
            "extra_byes": list(found.extra_byes),
        }
    if isinstance(error, PairingRulesBroken):
        return {
            "refused": [str(rule) for rule in error.refused],
            "checks": [
                {
                    "rule": str(c.rule),
                    "severity": str(c.severity),
                    "players": list(c.players),
                    "sentence": c.sentence,
                }
                for c in error.checks
            ],
        }
    if isinstance(error, PairingImpossible):
        names: tuple[str | None, ...] = error.names or (None,) * len(error.players)
        return {
            "unpairable_players": [
                {"id": int(player), "name": name}
                for player, name in zip(error.players, names, strict=True)
            ],
            "forbidden_pairs": [
                {
                    "id": pair.pair_id,
                    "players": [int(pair.first), int(pair.second)],
                    "kind": pair.kind.value,
                    "team": pair.team,
                }
                for pair in error.forbidden
            ],
        }
    return {}


def problem(
    status: int, code: str, detail: str, *, headers: dict[str, str] | None = None, **extra: Any
) -> JSONResponse:
    body = {
        "type": TYPE_BASE + code,
        "title": HTTPStatus(status).phrase,
        "status": status,
        "detail": detail,
        "code": code,
        **extra,
    }
    return JSONResponse(body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def to_response(exc: Exception) -> Response:
    """The one translation of an exception into a response: problem+json, or a bare 304."""
    if isinstance(exc, NotModified):
        return Response(status_code=304, headers={"ETag": exc.etag})
    if isinstance(exc, AppError):
        extra: dict[str, str] = {"WWW-Authenticate": "Bearer"} if exc.status == 401 else {}
        if exc.retry_after is not None:
            extra["Retry-After"] = str(exc.retry_after)
        return problem(exc.status, exc.code, exc.detail, headers=extra or None)
    if isinstance(exc, domain.DomainError):
        return problem(domain_status(exc), exc.code, str(exc), **domain_fields(exc))
    if isinstance(exc, RequestValidationError):
        errors = [
            {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")}
            for e in exc.errors()
        ]
        if any(e["type"] == "json_invalid" for e in errors):
            detail = "the body is not valid JSON: check its quotes, commas and brackets"
        else:
            found = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in errors)
            detail = f"correct these and send again: {found}" if found else "invalid request"
        return problem(422, "validation_error", detail, errors=errors)
    if isinstance(exc, StarletteHTTPException):
        codes = {400: "malformed_body", 404: "not_found", 405: "method_not_allowed"}
        code = codes.get(exc.status_code, f"http_{exc.status_code}")
        headers = dict(exc.headers) if exc.headers else None
        return problem(
            exc.status_code, code, HTTP_DETAILS.get(code, str(exc.detail)), headers=headers
        )
    if is_busy(exc):
        return to_response(Busy("the database did not answer in time (busy): try again"))
    if isinstance(exc, IntegrityError):
        # A race the database decided (a named constraint refused a row): 409, never a 500.
        constraint = getattr(getattr(exc.orig, "diag", None), "constraint_name", None)
        cause = f" ({constraint})" if constraint else ""
        detail = f"a concurrent change conflicts{cause}: read the tournament again, then retry"
        return problem(409, "conflict", detail)
    logger.exception("unexpected error", exc_info=exc)
    return problem(500, "internal_error", "an unexpected error; it has been logged")


async def handle(_request: Request, exc: Exception) -> Response:
    return to_response(exc)


def install_error_handlers(app: FastAPI) -> None:
    """One handler and one body shape for every refusal, whoever raised it."""
    for kind in (
        NotModified,
        AppError,
        domain.DomainError,
        RequestValidationError,
        StarletteHTTPException,
        IntegrityError,
        OperationalError,  # a lock or statement timeout (503) among them
        PoolTimeout,
        Exception,
    ):
        app.add_exception_handler(kind, handle)
