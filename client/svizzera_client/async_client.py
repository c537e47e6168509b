"""``AsyncClient``: every operation of the API as a coroutine (asyncio or trio)."""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from types import TracebackType
from typing import Any, Generic, ParamSpec, Self, TypeVar, overload

import anyio
import httpx
from httpx_sse import aconnect_sse

from svizzera_client import operations
from svizzera_client.base import DEFAULT_SERVER, DEFAULT_TIMEOUT, USER_AGENT, ClientBase
from svizzera_client.errors import ServerError, TooManyRequests, TransportError, error_for
from svizzera_client.events import (
    ClubEventEnvelope,
    EventEnvelope,
    parse_club_event,
    parse_event,
)
from svizzera_client.operations import Call
from svizzera_client.stream import E, Resume, stream_timeout

P = ParamSpec("P")
T = TypeVar("T")


class AsyncOperation(Generic[P, T]):
    """An operation as a coroutine method of ``AsyncClient``."""

    def __init__(self, build: Callable[P, Call[T]]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    @overload
    def __get__(self, client: None, owner: type[Any]) -> Self: ...
    @overload
    def __get__(self, client: AsyncClient, owner: type[Any]) -> Callable[P, Awaitable[T]]: ...
    def __get__(
        self, client: AsyncClient | None, owner: type[Any]
    ) -> Self | Callable[P, Awaitable[T]]:
        if client is None:
            return self
        build = self.build

        @functools.wraps(build)
        async def method(*args: P.args, **kwargs: P.kwargs) -> T:
            return await client.send(build(*args, **kwargs))

        return method


class AsyncClient(ClientBase):
    """The asynchronous twin of ``Client``: the same methods, awaited::

    async with AsyncClient("http://localhost:8000") as client:
        standings = await client.get_standings(tournament_id)
        async for event in client.events(tournament_id):
            ...
    """

    def __init__(
        self,
        server: str = DEFAULT_SERVER,
        *,
        tokens: Mapping[str, str] | None = None,
        create_key: str | None = None,
        club_keys: Mapping[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        http: httpx.AsyncClient | None = None,
    ) -> None:
        super().__init__(server, tokens=tokens, create_key=create_key, club_keys=club_keys)
        self._owns_http = http is None  # a client passed in is the caller's to close
        self._http = http or httpx.AsyncClient(timeout=timeout, headers={"User-Agent": USER_AGENT})

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def send(self, call: Call[T]) -> T:
        """Make the request ``call`` describes and read its answer."""
        try:
            response = await self._http.request(**self._request(call))
        except httpx.TransportError as exc:
            raise TransportError(f"cannot reach {self.server}: {exc}") from exc
        return self._read(call, response)

    def events(
        self,
        tournament_id: str,
        *,
        after: int = 0,
        timeout: float | None = None,
        reconnects: int = 10,
        read_timeout: float = 60.0,
    ) -> AsyncIterator[EventEnvelope]:
        """As ``Client.events``: every event once, in order, resumed after a dropped
        connection."""
        resume = Resume(parse_event, after=after, timeout=timeout, reconnects=reconnects)
        return self._follow(
            lambda: operations.events(
                tournament_id, last_event_id=resume.last_event_id, timeout=resume.remaining()
            ),
            resume,
            read_timeout,
        )

    def club_events(
        self,
        club_id: str,
        *,
        after: int = 0,
        timeout: float | None = None,
        reconnects: int = 10,
        read_timeout: float = 60.0,
    ) -> AsyncIterator[ClubEventEnvelope]:
        """As ``Client.club_events``: a club's events, once, in order, resumed."""
        resume = Resume(parse_club_event, after=after, timeout=timeout, reconnects=reconnects)
        return self._follow(
            lambda: operations.club_events(
                club_id, last_event_id=resume.last_event_id, timeout=resume.remaining()
            ),
            resume,
            read_timeout,
        )

    async def _follow(
        self, next_call: Callable[[], Call[None]], resume: Resume[E], read_timeout: float
    ) -> AsyncIterator[E]:
        while True:
            request = self._request(next_call())
            try:
                async with aconnect_sse(
                    self._http, **request, timeout=stream_timeout(read_timeout)
                ) as s:
                    if s.response.is_error:
                        await s.response.aread()
                        raise error_for(s.response)
                    resume.connected()
                    async for sse in s.aiter_sse():
                        if (event := resume.take(sse)) is not None:
                            yield event
            except (httpx.TransportError, ServerError, TooManyRequests) as exc:
                resume.failed(exc)
            wait = resume.wait()
            if wait is None:
                return
            await anyio.sleep(wait)

    # -- the operations (svizzera_client.operations) -------------------------------------------
    create_tournament = AsyncOperation(operations.create_tournament)
    import_trf = AsyncOperation(operations.import_trf)
    list_tournaments = AsyncOperation(operations.list_tournaments)
    get_tournament = AsyncOperation(operations.get_tournament)
    update_tournament = AsyncOperation(operations.update_tournament)
    delete_tournament = AsyncOperation(operations.delete_tournament)
    list_audit = AsyncOperation(operations.list_audit)
    list_players = AsyncOperation(operations.list_players)
    add_player = AsyncOperation(operations.add_player)
    update_player = AsyncOperation(operations.update_player)
    delete_player = AsyncOperation(operations.delete_player)
    request_bye = AsyncOperation(operations.request_bye)
    cancel_bye = AsyncOperation(operations.cancel_bye)
    list_forbidden_pairs = AsyncOperation(operations.list_forbidden_pairs)
    forbid_pair = AsyncOperation(operations.forbid_pair)
    delete_forbidden_pair = AsyncOperation(operations.delete_forbidden_pair)
    generate_round = AsyncOperation(operations.generate_round)
    preview_round = AsyncOperation(operations.preview_round)
    pair_round_by_hand = AsyncOperation(operations.pair_round_by_hand)
    replace_pairing = AsyncOperation(operations.replace_pairing)
    undo_round = AsyncOperation(operations.undo_round)
    get_clock = AsyncOperation(operations.get_clock)
    change_clock = AsyncOperation(operations.change_clock)
    list_rounds = AsyncOperation(operations.list_rounds)
    get_round = AsyncOperation(operations.get_round)
    round_explanation = AsyncOperation(operations.round_explanation)
    record_result = AsyncOperation(operations.record_result)
    record_results = AsyncOperation(operations.record_results)
    create_token = AsyncOperation(operations.create_token)
    list_tokens = AsyncOperation(operations.list_tokens)
    revoke_token = AsyncOperation(operations.revoke_token)
    rotate_organizer_token = AsyncOperation(operations.rotate_organizer_token)

    # clubs and their register
    create_club = AsyncOperation(operations.create_club)
    get_club = AsyncOperation(operations.get_club)
    rename_club = AsyncOperation(operations.rename_club)
    list_club_tournaments = AsyncOperation(operations.list_club_tournaments)
    create_club_tournament = AsyncOperation(operations.create_club_tournament)
    list_club_audit = AsyncOperation(operations.list_club_audit)
    create_club_key = AsyncOperation(operations.create_club_key)
    list_club_keys = AsyncOperation(operations.list_club_keys)
    rotate_club_key = AsyncOperation(operations.rotate_club_key)
    revoke_club_key = AsyncOperation(operations.revoke_club_key)
    search_club_players = AsyncOperation(operations.search_club_players)
    add_club_player = AsyncOperation(operations.add_club_player)
    get_club_player = AsyncOperation(operations.get_club_player)
    update_club_player = AsyncOperation(operations.update_club_player)
    merge_club_players = AsyncOperation(operations.merge_club_players)
    list_club_ratings = AsyncOperation(operations.list_club_ratings)
    get_rating_history = AsyncOperation(operations.get_rating_history)
    list_club_events = AsyncOperation(operations.list_club_events)
    create_club_webhook = AsyncOperation(operations.create_club_webhook)
    list_club_webhooks = AsyncOperation(operations.list_club_webhooks)
    get_club_webhook = AsyncOperation(operations.get_club_webhook)
    delete_club_webhook = AsyncOperation(operations.delete_club_webhook)
    list_club_deliveries = AsyncOperation(operations.list_club_deliveries)
    redeliver_club_delivery = AsyncOperation(operations.redeliver_club_delivery)
    create_season = AsyncOperation(operations.create_season)
    list_seasons = AsyncOperation(operations.list_seasons)
    get_season = AsyncOperation(operations.get_season)
    update_season = AsyncOperation(operations.update_season)
    delete_season = AsyncOperation(operations.delete_season)
    get_season_standings = AsyncOperation(operations.get_season_standings)
    export_season_standings = AsyncOperation(operations.export_season_standings)
    set_tournament_season = AsyncOperation(operations.set_tournament_season)
    get_season_print_page = AsyncOperation(operations.get_season_print_page)
    get_season_live_page = AsyncOperation(operations.get_season_live_page)
    clear_result = AsyncOperation(operations.clear_result)
    get_standings = AsyncOperation(operations.get_standings)
    start_final_phase = AsyncOperation(operations.start_final_phase)
    get_final_phase = AsyncOperation(operations.get_final_phase)
    get_bracket = AsyncOperation(operations.get_bracket)
    get_print_page = AsyncOperation(operations.get_print_page)
    create_claim = AsyncOperation(operations.create_claim)
    list_claims = AsyncOperation(operations.list_claims)
    get_report_form = AsyncOperation(operations.get_report_form)
    get_live_page = AsyncOperation(operations.get_live_page)
    export_standings = AsyncOperation(operations.export_standings)
    export_trf = AsyncOperation(operations.export_trf)
    check_tournament = AsyncOperation(operations.check_tournament)
    check_trf = AsyncOperation(operations.check_trf)
    health = AsyncOperation(operations.health)
    create_webhook = AsyncOperation(operations.create_webhook)
    list_webhooks = AsyncOperation(operations.list_webhooks)
    get_webhook = AsyncOperation(operations.get_webhook)
    delete_webhook = AsyncOperation(operations.delete_webhook)
    list_deliveries = AsyncOperation(operations.list_deliveries)
    redeliver = AsyncOperation(operations.redeliver)
