"""What the sync and async clients share: credentials, building a request from a ``Call``, and
reading the answer (errors, ETag, the token of a new tournament)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import PackageNotFoundError, version
from typing import Any, TypeVar

import httpx

from svizzera_client.errors import error_for
from svizzera_client.models import (
    ClubCreated,
    ClubKeyCreated,
    OrganizerTokenRotated,
    Response,
    TournamentCreated,
)
from svizzera_client.operations import Auth, Call

T = TypeVar("T")

DEFAULT_SERVER = "http://localhost:8000"
DEFAULT_TIMEOUT = 30.0
"""Seconds for connecting, sending and each read of a request (pairing 4,096 players fits)."""

try:
    USER_AGENT = f"svizzera-client/{version('svizzera-client')}"
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    USER_AGENT = "svizzera-client"


def server_url(server: str) -> str:
    """``server`` without a trailing ``/``; ``ValueError`` unless it is an ``http`` or ``https``
    URL with a host, like ``http://localhost:8000``."""
    try:
        url = httpx.URL(server)
    except httpx.InvalidURL as exc:
        raise ValueError(f"{server!r} is not a server address ({exc})") from None
    if url.scheme not in ("http", "https") or not url.host:
        raise ValueError(f"{server!r} is not a server address (one looks like {DEFAULT_SERVER})")
    return server.rstrip("/")


def etag_of(if_match: str | int) -> str:
    """``7`` (a tournament's version) → ``"7"``; an ETag (``'"7"'``, ``*``) stays as it is."""
    return f'"{if_match}"' if isinstance(if_match, int) else if_match


class ClientBase:
    """The server, and the credentials the client sends.

    ``tokens`` maps a tournament id to its organizer (or scorekeeper) token:
    ``create_tournament`` adds the new one, ``rotate_organizer_token`` replaces it; add others
    with ``client.tokens[tournament_id] = token``. ``create_key`` is the server's
    ``SVIZZERA_CREATE_KEY`` where the deployment requires one to create. ``club_keys`` maps a
    club id to its key: ``create_club`` adds the new one, and rotating that key (by its id)
    replaces it.
    """

    def __init__(
        self,
        server: str = DEFAULT_SERVER,
        *,
        tokens: Mapping[str, str] | None = None,
        create_key: str | None = None,
        club_keys: Mapping[str, str] | None = None,
    ) -> None:
        self.server = server_url(server)
        self.tokens: dict[str, str] = dict(tokens or {})
        self.create_key = create_key
        self.club_keys: dict[str, str] = dict(club_keys or {})
        self._club_key_ids: dict[str, int] = {}

    def _credential(self, auth: Auth, call: Call[Any]) -> str | None:
        if auth == "organizer" and call.tournament_id is not None:
            return self.tokens.get(call.tournament_id)
        if auth == "club" and call.club_id is not None:
            return self.club_keys.get(call.club_id)
        if auth == "create_key":
            return self.create_key
        return None

    def _request(self, call: Call[Any], **extra_headers: str) -> dict[str, Any]:
        """The arguments of ``httpx.Client.request`` for ``call``."""
        operation = call.operation
        if operation is None:
            raise TypeError("send a Call made by an operation of svizzera_client.operations")
        headers = {**call.headers, **extra_headers}
        credential = self._credential(operation.auth, call)
        if credential is not None:
            headers["Authorization"] = f"Bearer {credential}"
        if call.if_match is not None:
            headers["If-Match"] = etag_of(call.if_match)
        body = call.json
        return {
            "method": operation.method,
            "url": self.server + call.path,
            "params": {k: v for k, v in call.params.items() if v is not None},
            "headers": headers,
            "json": None if body is None else body.model_dump(mode="json", exclude_unset=True),
            "content": call.content,
        }

    def _read(self, call: Call[T], response: httpx.Response) -> T:
        """The answer as ``call`` reads it; an error answer raises its ``ApiError``."""
        if response.is_error:
            raise error_for(response)
        result = call.read(response)
        if isinstance(result, Response):
            result._etag = response.headers.get("ETag")
        if isinstance(result, TournamentCreated):
            self.tokens[result.id] = result.organizer_token
        if isinstance(result, OrganizerTokenRotated) and call.tournament_id is not None:
            self.tokens[call.tournament_id] = result.organizer_token  # the old one is dead
        if isinstance(result, ClubCreated):
            self.club_keys[result.id] = result.key.key
            self._club_key_ids[result.id] = result.key.id
        if isinstance(result, ClubKeyCreated) and call.club_id is not None:
            rotated = call.operation is not None and call.operation.id == "club-keys-rotate"
            if rotated and self._club_key_ids.get(call.club_id) == result.id:
                self.club_keys[call.club_id] = result.key  # the old one is dead
        return result
