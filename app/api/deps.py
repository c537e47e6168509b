"""Dependencies of the handlers: the session, the tournament read guard, the organizer guard."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Depends, Header, Path, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from app.api.cache import ReadCache
from app.db import get_session, release_connection
from app.errors import Forbidden, NotModified, PreconditionFailed, Unauthorized
from app.inputs import TOURNAMENT_ID
from app.services import access, quotas, storage
from app.settings import Settings

SessionDep = Annotated[Session, Depends(get_session, scope="function")]
TournamentId = Annotated[str, Path(description="The tournament's id", pattern=TOURNAMENT_ID)]
bearer = HTTPBearer(
    auto_error=False,
    description="The tournament's organizer token or a key of its club; for results also a "
    "scorekeeper token; for a club's register and keys, a key of the club; for creating a "
    "tournament or a club, the server's create key where one is set",
)
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def etag(version: int) -> str:
    return f'"{version}"'


def matches_tag(header_value: str, tag: str) -> bool:
    """Whether an ``If-None-Match``/``If-Match`` value names ``tag`` (or is ``*``)."""
    tags = {t.strip().removeprefix("W/") for t in header_value.split(",")}
    return "*" in tags or tag in tags


def _matches(header_value: str, version: int) -> bool:
    return matches_tag(header_value, etag(version))


def read_tournament(
    session: SessionDep,
    tournament_id: TournamentId,
    response: Response,
    if_none_match: Annotated[str | None, Header(description="An ETag from an earlier read")] = None,
) -> access.Header:
    """Loads the tournament's header (or 404s), sets ``ETag``, answers 304 when unchanged."""
    header = access.read_header(session, tournament_id)
    if if_none_match is not None and _matches(if_none_match, header.version):
        raise NotModified(etag(header.version))
    response.headers["ETag"] = etag(header.version)
    return header


IfMatch = Annotated[
    str | None, Header(description="Refuse with 412 unless the tournament is at this ETag")
]


def organizer(
    session: SessionDep,
    tournament_id: TournamentId,
    credentials: Credentials,
    response: Response,
    if_match: IfMatch = None,
) -> access.Write:
    """Checks the organizer token and ``If-Match``, without a lock: the command locks only to
    save, so a request with a wrong token never waits on one."""
    if credentials is None:
        raise Unauthorized(
            "this write is the organizer's: send `Authorization: Bearer <organizer_token>` "
            "(the token given when the tournament was created)"
        )
    header = access.read_header(session, tournament_id)
    actor = access.check_token(session, header, credentials.credentials)
    release_connection(session)
    return _write(header, response, if_match, actor, credentials.credentials)


def result_writer(
    session: SessionDep,
    tournament_id: TournamentId,
    credentials: Credentials,
    response: Response,
    if_match: IfMatch = None,
) -> access.Write:
    """Like ``organizer``, but a scorekeeper token of the tournament is accepted too."""
    header = access.read_header(session, tournament_id)
    token = credentials.credentials if credentials else None
    actor = access.check_result_token(session, header, token)
    release_connection(session)
    return _write(header, response, if_match, actor, token)


def _write(
    header: access.Header, response: Response, if_match: str | None, actor: str, token: str | None
) -> access.Write:
    """412 unless ``If-Match`` names the version read; the answer's ETag is the version the
    write makes (set once it is saved)."""
    if if_match is not None and not _matches(if_match, header.version):
        raise PreconditionFailed(
            f"the tournament changed: it is at ETag {etag(header.version)}, not {if_match}; "
            "read it again, check the change, then send the new ETag in `If-Match`"
        )

    def saved(version: int) -> None:
        response.headers["ETag"] = etag(version)

    expect = header.version if if_match is not None and if_match.strip() != "*" else None
    return access.Write(
        header.id, expect=expect, saved=saved, actor=actor, token=token, seen=header.version
    )


def organizer_reader(
    session: SessionDep, tournament_id: TournamentId, credentials: Credentials
) -> access.Header:
    """Checks the organizer token for an organizer-only read (no lock)."""
    if credentials is None:
        raise Unauthorized(
            "only the organizer may read this: send `Authorization: Bearer <organizer_token>` "
            "(the token given when the tournament was created)"
        )
    header = access.read_header(session, tournament_id)
    access.check_token(session, header, credentials.credentials)
    return header


def check_create_key(request: Request, credentials: Credentials) -> None:
    """With ``SVIZZERA_CREATE_KEY`` set, creating a tournament needs that key as bearer token."""
    settings: Settings = request.app.state.settings
    if settings.create_key is None:
        return
    if credentials is None:
        raise Unauthorized(
            "creating a tournament needs `Authorization: Bearer <create key>`: ask the "
            "server's operator for the key"
        )
    if not hmac.compare_digest(credentials.credentials.encode(), settings.create_key.encode()):
        raise Forbidden(
            "the create key does not match: send the key the server's operator gave you"
        )


def create_quota(request: Request) -> None:
    """``SVIZZERA_CREATE_RATE`` creations a minute per client address (429 past it).

    Counted in a transaction of its own, committed at once: a creation refused afterwards (a
    TRF that does not read, a body that does not validate) costs its sender the quota as a made
    one does, so refusals cannot be sent for free. The address is the connection's, or the one
    a proxy of ``SVIZZERA_FORWARDED_ALLOW_IPS`` names (``app.api.proxies``).
    """
    settings: Settings = request.app.state.settings
    if settings.create_rate == 0:
        return
    address = request.client.host if request.client is not None else "unknown"
    with Session(request.app.state.engine) as session, session.begin():
        quotas.count_creation(session, address, per_minute=settings.create_rate, now=storage.now())


def read_cache(request: Request) -> ReadCache:
    cache: ReadCache = request.app.state.read_cache
    return cache


ReadCacheDep = Annotated[ReadCache, Depends(read_cache)]
TournamentDep = Annotated[access.Header, Depends(read_tournament)]
OrganizerDep = Annotated[access.Write, Depends(organizer)]
ResultWriterDep = Annotated[access.Write, Depends(result_writer)]
OrganizerReadDep = Annotated[access.Header, Depends(organizer_reader)]
