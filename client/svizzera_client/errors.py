"""What the client raises. Every refusal of the server is an ``ApiError`` carrying its
problem+json (``status``, ``code``, ``title``, ``detail``); the subclass says the status.

    SvizzeraError
    ├── ApiError                 the server answered with an error
    │   ├── Unauthorized         401 no token (``unauthorized``)
    │   ├── Forbidden            403 wrong token (``forbidden``)
    │   ├── NotFound             404 (``tournament_not_found``, ``match_not_found``, …)
    │   ├── Conflict             409 the tournament's state refuses (``round_incomplete``, …)
    │   ├── PreconditionFailed   412 a stale ``if_match`` (``precondition_failed``)
    │   ├── PayloadTooLarge      413 (``payload_too_large``)
    │   ├── InvalidRequest       422 (``validation_error``, ``winner_required``, …)
    │   ├── TooManyRequests      429 (``retry_after``: seconds, when the server says)
    │   └── ServerError          5xx
    ├── TransportError           the server could not be reached, or the connection broke
    └── SignatureError           a webhook delivery whose signature does not verify
"""

from __future__ import annotations

from typing import Any

import httpx


class SvizzeraError(Exception):
    """Anything this package raises on purpose."""


class TransportError(SvizzeraError):
    """No answer: the server is unreachable, timed out, or dropped the connection."""


class SignatureError(SvizzeraError):
    """A webhook delivery whose ``Svizzera-Signature`` does not sign its body (or is too old)."""


class ApiError(SvizzeraError):
    """The server refused the request; ``problem`` is its whole problem+json body."""

    def __init__(self, status: int, problem: dict[str, Any]) -> None:
        self.status = status
        self.problem = problem
        self.code: str = str(problem.get("code", f"http_{status}"))
        self.title: str = str(problem.get("title", ""))
        self.detail: str = str(problem.get("detail", ""))
        super().__init__(f"{self.detail or self.title} ({self.code}, HTTP {status})")

    @property
    def errors(self) -> list[dict[str, Any]]:
        """For ``validation_error``: what failed validation, and where."""
        errors = self.problem.get("errors")
        return errors if isinstance(errors, list) else []


class Unauthorized(ApiError):
    pass


class Forbidden(ApiError):
    pass


class NotFound(ApiError):
    pass


class Conflict(ApiError):
    pass


class PreconditionFailed(ApiError):
    pass


class PayloadTooLarge(ApiError):
    pass


class InvalidRequest(ApiError):
    pass


class TooManyRequests(ApiError):
    def __init__(self, status: int, problem: dict[str, Any], retry_after: float | None) -> None:
        super().__init__(status, problem)
        self.retry_after = retry_after


class ServerError(ApiError):
    pass


_BY_STATUS: dict[int, type[ApiError]] = {
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    412: PreconditionFailed,
    413: PayloadTooLarge,
    422: InvalidRequest,
}


def error_for(response: httpx.Response) -> ApiError:
    """The exception for an error answer (``response`` has been read)."""
    problem = _problem_of(response)
    status = response.status_code
    if status == 429:
        retry_after = response.headers.get("Retry-After", "")
        seconds = float(retry_after) if retry_after.replace(".", "", 1).isdigit() else None
        return TooManyRequests(status, problem, seconds)
    cls = ServerError if status >= 500 else _BY_STATUS.get(status, ApiError)
    return cls(status, problem)


def _problem_of(response: httpx.Response) -> dict[str, Any]:
    """The problem+json body, or one made up from what came (a proxy's HTML page, say)."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and "code" in body:
        return body
    text = response.text.strip().splitlines()[0][:200] if response.text.strip() else ""
    return {
        "type": "about:blank",
        "title": response.reason_phrase,
        "status": response.status_code,
        "detail": text or response.reason_phrase,
        "code": f"http_{response.status_code}",
    }
