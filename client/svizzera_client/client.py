"""``Client``: every operation of the API as a blocking method."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator, Mapping
from types import TracebackType
from typing import Any, Generic, ParamSpec, Self, TypeVar, overload

import httpx
from httpx_sse import connect_sse

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


class SyncOperation(Generic[P, T]):
    """An operation as a method of ``Client``: same arguments, answers what the call reads."""

    def __init__(self, build: Callable[P, Call[T]]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    @overload
    def __get__(self, client: None, owner: type[Any]) -> Self: ...
    @overload
    def __get__(self, client: Client, owner: type[Any]) -> Callable[P, T]: ...
    def __get__(self, client: Client | None, owner: type[Any]) -> Self | Callable[P, T]:
        if client is None:
            return self
        build = self.build

        @functools.wraps(build)
        def method(*args: P.args, **kwargs: P.kwargs) -> T:
            return client.send(build(*args, **kwargs))

        return method


class Client(ClientBase):
    """A blocking client of one Svizzera server::

        with Client("http://localhost:8000") as client:
            created = client.create_tournament(TournamentCreate(name=…, players=[…]))
            round_ = client.generate_round(created.id)   # the token is remembered

    Every method raises an ``ApiError`` subclass when the server refuses (``.code``,
    ``.detail``, ``.status``), and ``TransportError`` when it cannot be reached; a ``server``
    that is not an ``http(s)://`` URL with a host is a ``ValueError`` at once.
    """

    def __init__(
        self,
        server: str = DEFAULT_SERVER,
        *,
        tokens: Mapping[str, str] | None = None,
        create_key: str | None = None,
        club_keys: Mapping[str, str] | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        http: httpx.Client | None = None,
    ) -> None:
        super().__init__(server, tokens=tokens, create_key=create_key, club_keys=club_keys)
        self._owns_http = http is None  # a client passed in is the caller's to close
        self._http = http or httpx.Client(timeout=timeout, headers={"User-Agent": USER_AGENT})

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._owns_http:
            self._http.close()

    def send(self, call: Call[T]) -> T:
        """Make the request ``call`` describes and read its answer."""
        try:
            response = self._http.request(**self._request(call))
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
    ) -> Iterator[EventEnvelope]:
        """The tournament's events after ``after``, then new ones as they are saved, each once
        and in order. A dropped connection is resumed with ``Last-Event-ID`` (``reconnects``
        failed attempts in a row end it with ``TransportError``); the iterator ends after
        ``timeout`` seconds, or never. Events are the classes of ``svizzera_client.events``.
        """
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
    ) -> Iterator[ClubEventEnvelope]:
        """As ``events``, for a club's events (``rating.updated``, ``season.updated``; the
        club's key, from ``club_keys``): ``RatingUpdatedEvent``, ``SeasonUpdatedEvent``."""
        resume = Resume(parse_club_event, after=after, timeout=timeout, reconnects=reconnects)
        return self._follow(
            lambda: operations.club_events(
                club_id, last_event_id=resume.last_event_id, timeout=resume.remaining()
            ),
            resume,
            read_timeout,
        )

    def _follow(
        self, next_call: Callable[[], Call[None]], resume: Resume[E], read_timeout: float
    ) -> Iterator[E]:
        """Connect (``next_call`` resumes where ``resume`` stands), hand out each event once,
        reconnect after the server's delay until ``resume`` says the stream is over."""
        while True:
            request = self._request(next_call())
            try:
                with connect_sse(self._http, **request, timeout=stream_timeout(read_timeout)) as s:
                    if s.response.is_error:
                        s.response.read()
                        raise error_for(s.response)
                    resume.connected()
                    for sse in s.iter_sse():
                        if (event := resume.take(sse)) is not None:
                            yield event
            except (httpx.TransportError, ServerError, TooManyRequests) as exc:
                resume.failed(exc)
            wait = resume.wait()
            if wait is None:
                return
            time.sleep(wait)

    # -- the operations (svizzera_client.operations) -------------------------------------------
    create_tournament = SyncOperation(operations.create_tournament)
    import_trf = SyncOperation(operations.import_trf)
    list_tournaments = SyncOperation(operations.list_tournaments)
    get_tournament = SyncOperation(operations.get_tournament)
    update_tournament = SyncOperation(operations.update_tournament)
    delete_tournament = SyncOperation(operations.delete_tournament)
    list_audit = SyncOperation(operations.list_audit)
    list_players = SyncOperation(operations.list_players)
    add_player = SyncOperation(operations.add_player)
    update_player = SyncOperation(operations.update_player)
    delete_player = SyncOperation(operations.delete_player)
    request_bye = SyncOperation(operations.request_bye)
    cancel_bye = SyncOperation(operations.cancel_bye)
    list_forbidden_pairs = SyncOperation(operations.list_forbidden_pairs)
    forbid_pair = SyncOperation(operations.forbid_pair)
    delete_forbidden_pair = SyncOperation(operations.delete_forbidden_pair)
    generate_round = SyncOperation(operations.generate_round)
    preview_round = SyncOperation(operations.preview_round)
    pair_round_by_hand = SyncOperation(operations.pair_round_by_hand)
    replace_pairing = SyncOperation(operations.replace_pairing)
    undo_round = SyncOperation(operations.undo_round)
    get_clock = SyncOperation(operations.get_clock)
    change_clock = SyncOperation(operations.change_clock)
    list_rounds = SyncOperation(operations.list_rounds)
    get_round = SyncOperation(operations.get_round)
    round_explanation = SyncOperation(operations.round_explanation)
    record_result = SyncOperation(operations.record_result)
    record_results = SyncOperation(operations.record_results)
    create_token = SyncOperation(operations.create_token)
    list_tokens = SyncOperation(operations.list_tokens)
    revoke_token = SyncOperation(operations.revoke_token)
    rotate_organizer_token = SyncOperation(operations.rotate_organizer_token)

    # clubs and their register
    create_club = SyncOperation(operations.create_club)
    get_club = SyncOperation(operations.get_club)
    rename_club = SyncOperation(operations.rename_club)
    list_club_tournaments = SyncOperation(operations.list_club_tournaments)
    create_club_tournament = SyncOperation(operations.create_club_tournament)
    list_club_audit = SyncOperation(operations.list_club_audit)
    create_club_key = SyncOperation(operations.create_club_key)
    list_club_keys = SyncOperation(operations.list_club_keys)
    rotate_club_key = SyncOperation(operations.rotate_club_key)
    revoke_club_key = SyncOperation(operations.revoke_club_key)
    search_club_players = SyncOperation(operations.search_club_players)
    add_club_player = SyncOperation(operations.add_club_player)
    get_club_player = SyncOperation(operations.get_club_player)
    update_club_player = SyncOperation(operations.update_club_player)
    merge_club_players = SyncOperation(operations.merge_club_players)
    list_club_ratings = SyncOperation(operations.list_club_ratings)
    get_rating_history = SyncOperation(operations.get_rating_history)
    list_club_events = SyncOperation(operations.list_club_events)
    create_club_webhook = SyncOperation(operations.create_club_webhook)
    list_club_webhooks = SyncOperation(operations.list_club_webhooks)
    get_club_webhook = SyncOperation(operations.get_club_webhook)
    delete_club_webhook = SyncOperation(operations.delete_club_webhook)
    list_club_deliveries = SyncOperation(operations.list_club_deliveries)
    redeliver_club_delivery = SyncOperation(operations.redeliver_club_delivery)
    create_season = SyncOperation(operations.create_season)
    list_seasons = SyncOperation(operations.list_seasons)
    get_season = SyncOperation(operations.get_season)
    update_season = SyncOperation(operations.update_season)
    delete_season = SyncOperation(operations.delete_season)
    get_season_standings = SyncOperation(operations.get_season_standings)
    export_season_standings = SyncOperation(operations.export_season_standings)
    set_tournament_season = SyncOperation(operations.set_tournament_season)
    get_season_print_page = SyncOperation(operations.get_season_print_page)
    get_season_live_page = SyncOperation(operations.get_season_live_page)
    clear_result = SyncOperation(operations.clear_result)
    get_standings = SyncOperation(operations.get_standings)
    start_final_phase = SyncOperation(operations.start_final_phase)
    get_final_phase = SyncOperation(operations.get_final_phase)
    get_bracket = SyncOperation(operations.get_bracket)
    get_print_page = SyncOperation(operations.get_print_page)
    create_claim = SyncOperation(operations.create_claim)
    list_claims = SyncOperation(operations.list_claims)
    get_report_form = SyncOperation(operations.get_report_form)
    get_live_page = SyncOperation(operations.get_live_page)
    export_standings = SyncOperation(operations.export_standings)
    export_trf = SyncOperation(operations.export_trf)
    check_tournament = SyncOperation(operations.check_tournament)
    check_trf = SyncOperation(operations.check_trf)
    health = SyncOperation(operations.health)
    create_webhook = SyncOperation(operations.create_webhook)
    list_webhooks = SyncOperation(operations.list_webhooks)
    get_webhook = SyncOperation(operations.get_webhook)
    delete_webhook = SyncOperation(operations.delete_webhook)
    list_deliveries = SyncOperation(operations.list_deliveries)
    redeliver = SyncOperation(operations.redeliver)
