"""Every operation of the API, once: its method, path and auth, the request it makes and how its
answer is read. ``Client`` and ``AsyncClient`` turn each into a method with one line
(``get_round = sync(operations.get_round)``), so both clients have the same signatures and the
coverage test can check each ``operationId`` of ``/openapi.json`` against ``OPERATIONS``.

To add an operation, see client/README.md ("Adding an operation").
"""

from __future__ import annotations

import functools
import inspect
import string
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Generic, Literal, ParamSpec, TypeVar
from urllib.parse import quote

import httpx
from pydantic import BaseModel, TypeAdapter

from svizzera_client.models import (
    AuditPage,
    BoardClaimsRead,
    BracketRead,
    ByeKind,
    ByeRequest,
    CheckRead,
    CheckRequest,
    ClaimAnswer,
    ClaimWrite,
    ClockAction,
    ClockRead,
    ClockWrite,
    ClubCreate,
    ClubCreated,
    ClubDeliveryPage,
    ClubDeliveryRead,
    ClubEventPage,
    ClubKeyCreated,
    ClubKeyRead,
    ClubPlayerCreate,
    ClubPlayerDetail,
    ClubPlayerMerge,
    ClubPlayerPage,
    ClubPlayerRead,
    ClubPlayerUpdate,
    ClubRatingPage,
    ClubRead,
    ClubTournamentCreate,
    ClubUpdate,
    ClubWebhookCreate,
    ClubWebhookCreated,
    ClubWebhookRead,
    DeliveryPage,
    DeliveryRead,
    DeliveryStatus,
    FinalPhaseRead,
    ForbiddenPairCreate,
    ForbiddenPairRead,
    HandPairingWrite,
    Health,
    MatchRead,
    OrganizerTokenRotated,
    PairKind,
    PlayerCreate,
    PlayerRead,
    PlayerUpdate,
    RatingHistoryPage,
    RegisterPlayer,
    Request,
    ResultsBatch,
    ResultWrite,
    RoundExplanationRead,
    RoundRead,
    SeasonCreate,
    SeasonPage,
    SeasonRead,
    SeasonStandingsRead,
    SeasonUpdate,
    StandingsRead,
    Status,
    TokenCreate,
    TokenCreated,
    TokenRead,
    TournamentCreate,
    TournamentCreated,
    TournamentPage,
    TournamentRead,
    TournamentSeason,
    TournamentUpdate,
    WebhookCreate,
    WebhookCreated,
    WebhookRead,
)

T = TypeVar("T")
P = ParamSpec("P")
M = TypeVar("M", bound=BaseModel)

Auth = Literal["public", "organizer", "create_key", "club"]
"""What a request carries: nothing, the tournament's organizer token, the server's create
key (``SVIZZERA_CREATE_KEY``, when the deployment sets one), or the club's key."""

CsvSeparator = Literal["comma", "semicolon"]
"""Between the cells of the standings CSV, and the decimal mark with it: ``,`` and ``.``, or
``;`` and ``,``."""

IfMatch = str | int | None
"""An ETag to send as ``If-Match`` (a model's ``etag``, or a tournament ``version`` as int)."""


@dataclass(frozen=True, slots=True)
class Operation:
    """One ``operationId`` of the API: where it is, and who may call it."""

    id: str
    method: str
    path: str
    auth: Auth
    name: str
    """The method's name on ``Client`` and ``AsyncClient``."""


@dataclass(frozen=True, slots=True)
class Call(Generic[T]):
    """One request, ready to send, and how to read a successful answer."""

    read: Callable[[httpx.Response], T]
    json: Request | None = None
    content: bytes | None = None
    """A body that is not JSON (a TRF), sent as it is with the ``Content-Type`` of ``headers``."""
    params: Mapping[str, str | int | float | None] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)
    if_match: IfMatch = None
    operation: Operation | None = None
    path: str = ""
    tournament_id: str | None = None
    club_id: str | None = None


OPERATIONS: dict[str, Operation] = {}


def operation(
    method: str, path: str, operation_id: str, *, auth: Auth = "public", variant: bool = False
) -> Callable[[Callable[P, Call[T]]], Callable[P, Call[T]]]:
    """Register a request builder as ``operation_id``: the path's ``{names}`` are filled from
    the builder's arguments of the same names. A ``variant`` is a second builder of an operation
    registered already, with another body (``import_trf`` for ``tournaments-create``):
    ``OPERATIONS`` keeps the first."""

    def register(build: Callable[P, Call[T]]) -> Callable[P, Call[T]]:
        signature = inspect.signature(build)
        names = [name for _, name, _, _ in string.Formatter().parse(path) if name]
        if missing := set(names) - signature.parameters.keys():
            raise TypeError(f"{build.__name__} lacks the path parameters {sorted(missing)}")
        op = Operation(operation_id, method, path, auth, build.__name__)
        registered = OPERATIONS.get(operation_id)
        if not variant:
            OPERATIONS[operation_id] = op
        elif registered is None or (registered.method, registered.path) != (method, path):
            raise TypeError(f"{build.__name__} is a variant of no registered {operation_id}")

        @functools.wraps(build)
        def bound(*args: P.args, **kwargs: P.kwargs) -> Call[T]:
            arguments = signature.bind(*args, **kwargs).arguments
            filled = path.format(**{n: quote(str(arguments[n]), safe="") for n in names})
            tournament_id = arguments.get("tournament_id")
            club_id = arguments.get("club_id")
            return replace(
                build(*args, **kwargs),
                operation=op,
                path=filled,
                tournament_id=None if tournament_id is None else str(tournament_id),
                club_id=None if club_id is None else str(club_id),
            )

        return bound

    return register


# -- how answers are read ----------------------------------------------------------------------


@functools.cache
def _adapter(cls: type[M]) -> TypeAdapter[list[M]]:
    return TypeAdapter(list[cls])  # type: ignore[valid-type]


def one(cls: type[M]) -> Callable[[httpx.Response], M]:
    return lambda response: cls.model_validate_json(response.content)


def many(cls: type[M]) -> Callable[[httpx.Response], list[M]]:
    return lambda response: _adapter(cls).validate_json(response.content)


def text(response: httpx.Response) -> str:
    return response.text


def csv_text(response: httpx.Response) -> str:
    """The CSV's text: the byte order mark the server starts it with, for spreadsheets, is not
    data (``csv`` would read it into the first column's name)."""
    return response.content.decode("utf-8-sig")


def nothing(response: httpx.Response) -> None:
    return None


TOURNAMENT = "/v1/tournaments/{tournament_id}"

# -- tournaments -------------------------------------------------------------------------------


@operation("POST", "/v1/tournaments", "tournaments-create", auth="create_key")
def create_tournament(body: TournamentCreate) -> Call[TournamentCreated]:
    """Create a tournament. Its ``organizer_token`` (in the answer, this once) is kept in
    ``client.tokens`` for the writes that follow."""
    return Call(one(TournamentCreated), json=body)


@operation("GET", "/v1/tournaments", "tournaments-list")
def list_tournaments(
    *,
    status: Status | None = None,
    q: str | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> Call[TournamentPage]:
    """A page of tournaments, newest first, only those in ``status`` and whose name contains
    ``q`` if given; pass ``next_cursor`` as ``cursor`` (with the same filters) for the next."""
    params = {"status": status, "q": q, "limit": limit, "cursor": cursor}
    return Call(one(TournamentPage), params=params)


@operation("GET", TOURNAMENT, "tournaments-read")
def get_tournament(tournament_id: str) -> Call[TournamentRead]:
    return Call(one(TournamentRead))


@operation("PATCH", TOURNAMENT, "tournaments-update", auth="organizer")
def update_tournament(
    tournament_id: str, body: TournamentUpdate, *, if_match: IfMatch = None
) -> Call[TournamentRead]:
    """Rename; change settings while still in registration."""
    return Call(one(TournamentRead), json=body, if_match=if_match)


@operation("DELETE", TOURNAMENT, "tournaments-delete", auth="organizer")
def delete_tournament(tournament_id: str, *, if_match: IfMatch = None) -> Call[None]:
    return Call(nothing, if_match=if_match)


@operation("GET", TOURNAMENT + "/audit", "audit-list", auth="organizer")
def list_audit(
    tournament_id: str, *, limit: int | None = None, cursor: str | None = None
) -> Call[AuditPage]:
    """A page of the accepted writes, oldest first: who, what, when (organizer only)."""
    return Call(one(AuditPage), params={"limit": limit, "cursor": cursor})


# -- players -----------------------------------------------------------------------------------


@operation("GET", TOURNAMENT + "/players", "players-list")
def list_players(
    tournament_id: str,
    *,
    status: Literal["active", "withdrawn"] | None = None,
    q: str | None = None,
) -> Call[list[PlayerRead]]:
    """By start number; only ``active`` or ``withdrawn`` ones, whose name contains ``q``."""
    return Call(many(PlayerRead), params={"status": status, "q": q})


@operation("POST", TOURNAMENT + "/players", "players-create", auth="organizer")
def add_player(
    tournament_id: str, body: PlayerCreate | RegisterPlayer, *, if_match: IfMatch = None
) -> Call[PlayerRead]:
    """Add a player in registration, or a late entry until half the Swiss rounds; in a club's
    tournament ``RegisterPlayer(club_player_id=…)`` takes an entry of its register."""
    return Call(one(PlayerRead), json=body, if_match=if_match)


@operation("PATCH", TOURNAMENT + "/players/{player_id}", "players-update", auth="organizer")
def update_player(
    tournament_id: str, player_id: int, body: PlayerUpdate, *, if_match: IfMatch = None
) -> Call[PlayerRead]:
    """Rename (``PlayerUpdate(name=…)``), withdraw (``PlayerUpdate(withdrawn=True)``), change
    the team (``PlayerUpdate(team=…)``, ``team=None`` for none) or check in for round 1
    (``PlayerUpdate(checked_in=True)``, in registration)."""
    return Call(one(PlayerRead), json=body, if_match=if_match)


@operation("DELETE", TOURNAMENT + "/players/{player_id}", "players-delete", auth="organizer")
def delete_player(tournament_id: str, player_id: int, *, if_match: IfMatch = None) -> Call[None]:
    """Delete a player during registration."""
    return Call(nothing, if_match=if_match)


@operation(
    "PUT",
    TOURNAMENT + "/players/{player_id}/byes/{number}",
    "players-bye-request",
    auth="organizer",
)
def request_bye(
    tournament_id: str,
    player_id: int,
    number: int,
    kind: ByeKind = "half_point",
    *,
    if_match: IfMatch = None,
) -> Call[PlayerRead]:
    """The player will not play round ``number`` (not paired yet) and gets a bye of ``kind``
    (``half_point``: a draw's points, ``zero_point``: none); answers the player."""
    return Call(one(PlayerRead), json=ByeRequest(kind=kind), if_match=if_match)


@operation(
    "DELETE",
    TOURNAMENT + "/players/{player_id}/byes/{number}",
    "players-bye-cancel",
    auth="organizer",
)
def cancel_bye(
    tournament_id: str, player_id: int, number: int, *, if_match: IfMatch = None
) -> Call[PlayerRead]:
    """Take back the bye asked for in round ``number``; answers the player."""
    return Call(one(PlayerRead), if_match=if_match)


# -- forbidden pairs ---------------------------------------------------------------------------


@operation("GET", TOURNAMENT + "/forbidden-pairs", "forbidden-pairs-list", auth="organizer")
def list_forbidden_pairs(tournament_id: str) -> Call[list[ForbiddenPairRead]]:
    """The forbidden pairs listed (the organizer's only), by id."""
    return Call(many(ForbiddenPairRead))


@operation("POST", TOURNAMENT + "/forbidden-pairs", "forbidden-pairs-create", auth="organizer")
def forbid_pair(
    tournament_id: str,
    first: int,
    second: int,
    kind: PairKind = "hard",
    *,
    if_match: IfMatch = None,
) -> Call[ForbiddenPairRead]:
    """Players ``first`` and ``second`` are not to be paired: ``hard`` never, ``soft`` unless
    the round cannot be paired otherwise."""
    body = ForbiddenPairCreate(players=[first, second], kind=kind)
    return Call(one(ForbiddenPairRead), json=body, if_match=if_match)


@operation(
    "DELETE", TOURNAMENT + "/forbidden-pairs/{pair_id}", "forbidden-pairs-delete", auth="organizer"
)
def delete_forbidden_pair(
    tournament_id: str, pair_id: int, *, if_match: IfMatch = None
) -> Call[None]:
    """Take a forbidden pair off the list (the rounds already paired stay)."""
    return Call(nothing, if_match=if_match)


# -- rounds and results ------------------------------------------------------------------------


@operation("POST", TOURNAMENT + "/rounds", "rounds-generate", auth="organizer")
def generate_round(tournament_id: str, *, if_match: IfMatch = None) -> Call[RoundRead]:
    """Pair the next Swiss round (every group's matches in the group variant)."""
    return Call(one(RoundRead), if_match=if_match)


@operation("POST", TOURNAMENT + "/rounds", "rounds-generate", auth="organizer", variant=True)
def pair_round_by_hand(
    tournament_id: str, body: HandPairingWrite, *, if_match: IfMatch = None
) -> Call[RoundRead]:
    """Make the next round from the boards and byes given (``manual``); a broken rule of
    severity ``error`` not in ``body.accept`` is ``PairingRulesBroken``-like 409
    ``pairing_rules_broken``, a player missing or twice 422 ``pairing_players_invalid``."""
    return Call(one(RoundRead), json=body, if_match=if_match)


@operation(
    "PUT", TOURNAMENT + "/rounds/{number}/pairing", "rounds-pairing-replace", auth="organizer"
)
def replace_pairing(
    tournament_id: str, number: int, body: HandPairingWrite, *, if_match: IfMatch = None
) -> Call[RoundRead]:
    """Replace the latest round's boards and byes by hand while none of its results is
    recorded; checked as ``pair_round_by_hand``."""
    return Call(one(RoundRead), json=body, if_match=if_match)


@operation("GET", TOURNAMENT + "/rounds/{number}/clock", "rounds-clock-read")
def get_clock(tournament_id: str, number: int) -> Call[ClockRead]:
    """Round ``number``'s clock measured now (``not_started`` before its first start)."""
    return Call(one(ClockRead))


@operation("POST", TOURNAMENT + "/rounds/{number}/clock", "rounds-clock-change", auth="organizer")
def change_clock(
    tournament_id: str,
    number: int,
    action: ClockAction,
    *,
    duration: int | None = None,
    if_match: IfMatch = None,
) -> Call[ClockRead]:
    """``start`` (``duration`` seconds, else the tournament's ``round_duration``), ``pause``,
    ``resume`` or ``end`` round ``number``'s clock; the clock as it is after."""
    body = ClockWrite(action=action, duration=duration)
    return Call(one(ClockRead), json=body, if_match=if_match)


@operation("POST", TOURNAMENT + "/rounds/preview", "rounds-preview", auth="organizer")
def preview_round(tournament_id: str) -> Call[RoundRead]:
    """The round ``generate_round`` would pair now, match ids included; nothing is saved."""
    return Call(one(RoundRead))


@operation("DELETE", TOURNAMENT + "/rounds/{number}", "rounds-undo", auth="organizer")
def undo_round(tournament_id: str, number: int, *, if_match: IfMatch = None) -> Call[None]:
    """Take back the latest round while none of its results is recorded."""
    return Call(nothing, if_match=if_match)


@operation("GET", TOURNAMENT + "/rounds", "rounds-list")
def list_rounds(tournament_id: str) -> Call[list[RoundRead]]:
    return Call(many(RoundRead))


@operation("GET", TOURNAMENT + "/rounds/{number}", "rounds-read")
def get_round(tournament_id: str, number: int) -> Call[RoundRead]:
    return Call(one(RoundRead))


@operation("GET", TOURNAMENT + "/rounds/{number}/explanation", "rounds-explanation")
def round_explanation(
    tournament_id: str, number: int, *, lang: str | None = None
) -> Call[RoundExplanationRead]:
    """Why round ``number`` is paired as it is: for every board and bye the steps of the
    system's rules that placed them, each with a sentence in ``lang`` (en, it, sk, cs)."""
    return Call(one(RoundExplanationRead), params={"lang": lang})


@operation("PUT", TOURNAMENT + "/matches/{match_id}/result", "results-record", auth="organizer")
def record_result(
    tournament_id: str, match_id: int, body: ResultWrite, *, if_match: IfMatch = None
) -> Call[MatchRead]:
    """Record or correct a result; answers the match."""
    return Call(one(MatchRead), json=body, if_match=if_match)


@operation("POST", TOURNAMENT + "/results", "results-record-batch", auth="organizer")
def record_results(
    tournament_id: str, body: ResultsBatch, *, if_match: IfMatch = None
) -> Call[list[MatchRead]]:
    """Several results at once, all or nothing; answers the matches in the order sent."""
    return Call(many(MatchRead), json=body, if_match=if_match)


@operation("DELETE", TOURNAMENT + "/matches/{match_id}/result", "results-clear", auth="organizer")
def clear_result(tournament_id: str, match_id: int, *, if_match: IfMatch = None) -> Call[MatchRead]:
    return Call(one(MatchRead), if_match=if_match)


# -- tokens ------------------------------------------------------------------------------------


@operation("POST", TOURNAMENT + "/tokens", "tokens-create", auth="organizer")
def create_token(tournament_id: str, body: TokenCreate) -> Call[TokenCreated]:
    """A scorekeeper token (records and clears results only); its secret is in the answer."""
    return Call(one(TokenCreated), json=body)


@operation("GET", TOURNAMENT + "/tokens", "tokens-list", auth="organizer")
def list_tokens(tournament_id: str) -> Call[list[TokenRead]]:
    """The scorekeeper tokens, revoked ones too (no secrets)."""
    return Call(many(TokenRead))


@operation("DELETE", TOURNAMENT + "/tokens/{token_id}", "tokens-revoke", auth="organizer")
def revoke_token(tournament_id: str, token_id: int) -> Call[None]:
    return Call(nothing)


@operation("POST", TOURNAMENT + "/organizer-token", "organizer-token-rotate", auth="organizer")
def rotate_organizer_token(tournament_id: str) -> Call[OrganizerTokenRotated]:
    """A new organizer token; the old one stops working at once. The client keeps the new one
    in ``client.tokens``."""
    return Call(one(OrganizerTokenRotated))


# -- standings, final phase, printing ----------------------------------------------------------


@operation("GET", TOURNAMENT + "/standings", "standings-read")
def get_standings(tournament_id: str, *, group: str | None = None) -> Call[StandingsRead]:
    """The standings in order; ``group="A"`` for one group of the group variant."""
    return Call(one(StandingsRead), params={"group": group})


@operation("POST", TOURNAMENT + "/final-phase", "final-phase-start", auth="organizer")
def start_final_phase(tournament_id: str, *, if_match: IfMatch = None) -> Call[FinalPhaseRead]:
    """Start the final phase (after the last Swiss round, or early after a complete one)."""
    return Call(one(FinalPhaseRead), if_match=if_match)


@operation("GET", TOURNAMENT + "/final-phase", "final-phase-read")
def get_final_phase(tournament_id: str) -> Call[FinalPhaseRead]:
    return Call(one(FinalPhaseRead))


@operation("GET", TOURNAMENT + "/bracket", "bracket-read")
def get_bracket(tournament_id: str) -> Call[BracketRead]:
    """The final phase as a bracket: each slot says where its player comes from."""
    return Call(one(BracketRead))


@operation("POST", "/v1/tournaments", "tournaments-create", auth="create_key", variant=True)
def import_trf(trf: str | bytes) -> Call[TournamentCreated]:
    """Create a ``dutch`` tournament from a Tournament Report File (its text, or its bytes as
    UTF-8) with the whole history it holds; a file the server cannot read is an ``ApiError``
    with code ``invalid_trf`` naming its line and column."""
    content = trf.encode() if isinstance(trf, str) else trf
    headers = {"Content-Type": "text/plain; charset=utf-8"}
    return Call(one(TournamentCreated), content=content, headers=headers)


# -- the checker -------------------------------------------------------------------------------


@operation("POST", "/v1/check", "check")
def check_tournament(tournament_id: str) -> Call[CheckRead]:
    """Every Swiss round of the tournament paired again, by its system, from the rounds before
    it; the rounds whose pairing differs, with both pairings. Nothing is stored."""
    return Call(one(CheckRead), json=CheckRequest(tournament=tournament_id))


@operation("POST", "/v1/check", "check", variant=True)
def check_trf(trf: str | bytes) -> Call[CheckRead]:
    """The rounds of a Tournament Report File (its text, or its bytes as UTF-8) checked the same
    way, by ``dutch``; a file the server cannot read is an ``ApiError`` ``invalid_trf``."""
    content = trf.encode() if isinstance(trf, str) else trf
    headers = {"Content-Type": "text/plain; charset=utf-8"}
    return Call(one(CheckRead), content=content, headers=headers)


@operation("GET", TOURNAMENT + "/print", "print-read", auth="organizer")
def get_print_page(tournament_id: str, *, lang: str | None = None) -> Call[str]:
    """The printable HTML page; ``lang``: ``en``, ``it``, ``sk`` or ``cs``. With the
    organizer token held and ``player_results`` on, it ends with the table cards (each
    board's code and a QR code of its result form)."""
    return Call(text, params={"lang": lang})


@operation("POST", TOURNAMENT + "/matches/{match_id}/claims", "claims-create")
def create_claim(tournament_id: str, match_id: int, body: ClaimWrite) -> Call[ClaimAnswer]:
    """A player's claim of a board's result with its code; the opponent's same claim
    confirms it (the result is recorded), a different one disputes it."""
    return Call(one(ClaimAnswer), json=body)


@operation("GET", TOURNAMENT + "/claims", "claims-list", auth="organizer")
def list_claims(tournament_id: str) -> Call[list[BoardClaimsRead]]:
    """The boards with players' claims, pending or disputed, with both sides' claims."""
    return Call(many(BoardClaimsRead))


@operation("GET", TOURNAMENT + "/matches/{match_id}/report", "report-form-read")
def get_report_form(
    tournament_id: str, match_id: int, *, lang: str | None = None, code: str | None = None
) -> Call[str]:
    """A board's result form for players (HTML, for a phone's browser)."""
    return Call(text, params={"lang": lang, "code": code})


@operation("GET", TOURNAMENT + "/live", "live-read")
def get_live_page(tournament_id: str, *, lang: str | None = None, tv: bool = False) -> Call[str]:
    """The club-room HTML page (for a browser: its script follows the event stream)."""
    return Call(text, params={"lang": lang, "tv": 1 if tv else None})


@operation("GET", TOURNAMENT + "/export.csv", "standings-export")
def export_standings(
    tournament_id: str, *, sep: CsvSeparator | None = None, lang: str | None = None
) -> Call[str]:
    """The standings as CSV text, without the byte order mark the file starts with. ``sep``:
    ``comma`` (halves as ``4.5``) or ``semicolon`` (``4,5``, for spreadsheets with a decimal
    comma); without it, ``lang`` ``it``, ``sk`` or ``cs`` gives ``semicolon``, else ``comma``."""
    return Call(csv_text, params={"sep": sep, "lang": lang})


@operation("GET", TOURNAMENT + "/export.trf", "trf-export")
def export_trf(tournament_id: str) -> Call[str]:
    """The tournament as a FIDE Tournament Report File (TRF text, lines ended by CR)."""
    return Call(text)


@operation("GET", TOURNAMENT + "/events", "events-stream")
def events(
    tournament_id: str, *, last_event_id: int = 0, timeout: float | None = None
) -> Call[None]:
    """The first request of an event stream (``Client.events`` makes the iterator)."""
    headers = {"Last-Event-ID": str(last_event_id)} if last_event_id else {}
    return Call(nothing, params={"timeout": timeout}, headers=headers)


@operation("GET", "/health", "health-read")
def health() -> Call[Health]:
    return Call(one(Health))


# -- webhooks ----------------------------------------------------------------------------------

WEBHOOK = TOURNAMENT + "/webhooks/{webhook_id}"


@operation("POST", TOURNAMENT + "/webhooks", "webhooks-create", auth="organizer")
def create_webhook(tournament_id: str, body: WebhookCreate) -> Call[WebhookCreated]:
    """Register an endpoint; its signing ``secret`` is in this answer only."""
    return Call(one(WebhookCreated), json=body)


@operation("GET", TOURNAMENT + "/webhooks", "webhooks-list", auth="organizer")
def list_webhooks(tournament_id: str) -> Call[list[WebhookRead]]:
    return Call(many(WebhookRead))


@operation("GET", WEBHOOK, "webhooks-read", auth="organizer")
def get_webhook(tournament_id: str, webhook_id: int) -> Call[WebhookRead]:
    return Call(one(WebhookRead))


@operation("DELETE", WEBHOOK, "webhooks-delete", auth="organizer")
def delete_webhook(tournament_id: str, webhook_id: int) -> Call[None]:
    return Call(nothing)


@operation("GET", WEBHOOK + "/deliveries", "webhooks-deliveries-list", auth="organizer")
def list_deliveries(
    tournament_id: str,
    webhook_id: int,
    *,
    status: DeliveryStatus | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> Call[DeliveryPage]:
    """A page of the delivery log, newest first; ``next_cursor`` as ``cursor`` for the next."""
    return Call(one(DeliveryPage), params={"status": status, "limit": limit, "cursor": cursor})


@operation(
    "POST", WEBHOOK + "/deliveries/{delivery_id}/redeliver", "webhooks-redeliver", auth="organizer"
)
def redeliver(tournament_id: str, webhook_id: int, delivery_id: int) -> Call[DeliveryRead]:
    """Send a delivery again (same event id and delivery id)."""
    return Call(one(DeliveryRead))


# -- clubs and their register ------------------------------------------------------------------

CLUB = "/v1/clubs/{club_id}"


@operation("POST", "/v1/clubs", "clubs-create", auth="create_key")
def create_club(body: ClubCreate) -> Call[ClubCreated]:
    """Create a club. Its key (in the answer, this once) is kept in ``client.club_keys`` for
    the club's calls that follow."""
    return Call(one(ClubCreated), json=body)


@operation("GET", CLUB, "clubs-read")
def get_club(club_id: str) -> Call[ClubRead]:
    return Call(one(ClubRead))


@operation("PATCH", CLUB, "clubs-update", auth="club")
def rename_club(club_id: str, body: ClubUpdate) -> Call[ClubRead]:
    """Rename the club and/or change its rating settings (``rating_system``, ``elo_k``): the
    fields given."""
    return Call(one(ClubRead), json=body)


@operation("GET", CLUB + "/tournaments", "club-tournaments-list")
def list_club_tournaments(
    club_id: str,
    *,
    status: Status | None = None,
    season: int | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> Call[TournamentPage]:
    """A page of the club's tournaments, newest first (only those in ``status`` and of the
    season ``season``, if given)."""
    return Call(
        one(TournamentPage),
        params={"status": status, "season": season, "limit": limit, "cursor": cursor},
    )


@operation("POST", CLUB + "/tournaments", "club-tournaments-create", auth="club")
def create_club_tournament(club_id: str, body: ClubTournamentCreate) -> Call[TournamentCreated]:
    """Create a tournament of the club with its key; players from the register
    (``RegisterPlayer``) or names. Its own ``organizer_token`` goes to ``client.tokens``."""
    return Call(one(TournamentCreated), json=body)


@operation("GET", CLUB + "/audit", "club-audit-list", auth="club")
def list_club_audit(
    club_id: str, *, limit: int | None = None, cursor: str | None = None
) -> Call[AuditPage]:
    """The club-level writes, oldest first (club key only)."""
    return Call(one(AuditPage), params={"limit": limit, "cursor": cursor})


@operation("POST", CLUB + "/keys", "club-keys-create", auth="club")
def create_club_key(club_id: str, body: TokenCreate) -> Call[ClubKeyCreated]:
    """Another key of the club, with a label; its secret is in the answer."""
    return Call(one(ClubKeyCreated), json=body)


@operation("GET", CLUB + "/keys", "club-keys-list", auth="club")
def list_club_keys(club_id: str) -> Call[list[ClubKeyRead]]:
    """The club's keys, revoked ones too (no secrets)."""
    return Call(many(ClubKeyRead))


@operation("POST", CLUB + "/keys/{key_id}/rotate", "club-keys-rotate", auth="club")
def rotate_club_key(club_id: str, key_id: int) -> Call[ClubKeyCreated]:
    """A new secret for key ``key_id``; the old one stops at once. When it is the key the
    client holds for the club, the client keeps the new one."""
    return Call(one(ClubKeyCreated))


@operation("DELETE", CLUB + "/keys/{key_id}", "club-keys-revoke", auth="club")
def revoke_club_key(club_id: str, key_id: int) -> Call[None]:
    return Call(nothing)


@operation("GET", CLUB + "/players", "club-players-list", auth="club")
def search_club_players(
    club_id: str, *, q: str | None = None, limit: int | None = None, cursor: str | None = None
) -> Call[ClubPlayerPage]:
    """A page of the register in name order; with ``q``, the entries one of whose names
    contains it, accents and case aside."""
    return Call(one(ClubPlayerPage), params={"q": q, "limit": limit, "cursor": cursor})


@operation("POST", CLUB + "/players", "club-players-create", auth="club")
def add_club_player(club_id: str, body: ClubPlayerCreate) -> Call[ClubPlayerRead]:
    return Call(one(ClubPlayerRead), json=body)


@operation("GET", CLUB + "/players/{player_id}", "club-players-read", auth="club")
def get_club_player(club_id: str, player_id: int) -> Call[ClubPlayerDetail]:
    """An entry and the tournaments it played."""
    return Call(one(ClubPlayerDetail))


@operation("PATCH", CLUB + "/players/{player_id}", "club-players-update", auth="club")
def update_club_player(
    club_id: str, player_id: int, body: ClubPlayerUpdate
) -> Call[ClubPlayerRead]:
    return Call(one(ClubPlayerRead), json=body)


@operation("POST", CLUB + "/players/{player_id}/merge", "club-players-merge", auth="club")
def merge_club_players(club_id: str, player_id: int, merged_id: int) -> Call[ClubPlayerDetail]:
    """Entry ``merged_id`` becomes part of ``player_id``: its tournaments and names move
    here, and it is gone."""
    return Call(one(ClubPlayerDetail), json=ClubPlayerMerge(merged_id=merged_id))


@operation("GET", CLUB + "/ratings", "club-ratings-list", auth="club")
def list_club_ratings(
    club_id: str, *, limit: int | None = None, cursor: str | None = None
) -> Call[ClubRatingPage]:
    """A page of the club's rating list, best first (club key)."""
    return Call(one(ClubRatingPage), params={"limit": limit, "cursor": cursor})


@operation("GET", CLUB + "/players/{player_id}/history", "club-ratings-history", auth="club")
def get_rating_history(
    club_id: str, player_id: int, *, limit: int | None = None, cursor: str | None = None
) -> Call[RatingHistoryPage]:
    """A register entry's rating after each rated tournament, oldest first."""
    return Call(one(RatingHistoryPage), params={"limit": limit, "cursor": cursor})


@operation("GET", CLUB + "/events", "club-events-list", auth="club")
def list_club_events(
    club_id: str, *, after: int | None = None, limit: int | None = None
) -> Call[ClubEventPage]:
    """The club's events after seq ``after``, oldest first (``rating.updated``, …)."""
    return Call(one(ClubEventPage), params={"after": after, "limit": limit})


@operation("GET", CLUB + "/events/stream", "club-events-stream", auth="club")
def club_events(
    club_id: str, *, last_event_id: int = 0, timeout: float | None = None
) -> Call[None]:
    """The first request of a club's event stream (``Client.club_events`` makes the
    iterator)."""
    headers = {"Last-Event-ID": str(last_event_id)} if last_event_id else {}
    return Call(nothing, params={"timeout": timeout}, headers=headers)


# -- a club's webhooks (club key): as a tournament's, for the club's events ---------------------

CLUB_WEBHOOK = CLUB + "/webhooks/{webhook_id}"


@operation("POST", CLUB + "/webhooks", "club-webhooks-create", auth="club")
def create_club_webhook(club_id: str, body: ClubWebhookCreate) -> Call[ClubWebhookCreated]:
    """Register an endpoint for the club's events; its ``secret`` is in the answer only."""
    return Call(one(ClubWebhookCreated), json=body)


@operation("GET", CLUB + "/webhooks", "club-webhooks-list", auth="club")
def list_club_webhooks(club_id: str) -> Call[list[ClubWebhookRead]]:
    return Call(many(ClubWebhookRead))


@operation("GET", CLUB_WEBHOOK, "club-webhooks-read", auth="club")
def get_club_webhook(club_id: str, webhook_id: int) -> Call[ClubWebhookRead]:
    return Call(one(ClubWebhookRead))


@operation("DELETE", CLUB_WEBHOOK, "club-webhooks-delete", auth="club")
def delete_club_webhook(club_id: str, webhook_id: int) -> Call[None]:
    return Call(nothing)


@operation("GET", CLUB_WEBHOOK + "/deliveries", "club-webhooks-deliveries-list", auth="club")
def list_club_deliveries(
    club_id: str,
    webhook_id: int,
    *,
    status: DeliveryStatus | None = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> Call[ClubDeliveryPage]:
    """A page of a club endpoint's delivery log, newest first."""
    params = {"status": status, "limit": limit, "cursor": cursor}
    return Call(one(ClubDeliveryPage), params=params)


@operation(
    "POST",
    CLUB_WEBHOOK + "/deliveries/{delivery_id}/redeliver",
    "club-webhooks-redeliver",
    auth="club",
)
def redeliver_club_delivery(
    club_id: str, webhook_id: int, delivery_id: int
) -> Call[ClubDeliveryRead]:
    """Send a delivery of the club's events again (same event id and delivery id)."""
    return Call(one(ClubDeliveryRead))


# -- seasons ---------------------------------------------------------------------------------

SEASON = CLUB + "/seasons/{season_id}"


@operation("POST", CLUB + "/seasons", "seasons-create", auth="club")
def create_season(club_id: str, body: SeasonCreate) -> Call[SeasonRead]:
    """A season of the club and its scoring rule."""
    return Call(one(SeasonRead), json=body)


@operation("GET", CLUB + "/seasons", "seasons-list")
def list_seasons(
    club_id: str, *, limit: int | None = None, cursor: str | None = None
) -> Call[SeasonPage]:
    """A page of the club's seasons, oldest first."""
    return Call(one(SeasonPage), params={"limit": limit, "cursor": cursor})


@operation("GET", SEASON, "seasons-read")
def get_season(club_id: str, season_id: int) -> Call[SeasonRead]:
    return Call(one(SeasonRead))


@operation("PATCH", SEASON, "seasons-update", auth="club")
def update_season(
    club_id: str, season_id: int, body: SeasonUpdate, *, if_match: IfMatch = None
) -> Call[SeasonRead]:
    """Rename the season and/or give it another rule (the fields given); ``if_match``: its
    ``version``."""
    return Call(one(SeasonRead), json=body, if_match=if_match)


@operation("DELETE", SEASON, "seasons-delete", auth="club")
def delete_season(club_id: str, season_id: int, *, if_match: IfMatch = None) -> Call[None]:
    """Delete the season; its tournaments leave it and stay, in no season."""
    return Call(nothing, if_match=if_match)


@operation("GET", SEASON + "/standings", "season-standings-read")
def get_season_standings(club_id: str, season_id: int) -> Call[SeasonStandingsRead]:
    """The season table over its finished evenings; the others listed, not counted."""
    return Call(one(SeasonStandingsRead))


@operation("GET", SEASON + "/export.csv", "season-standings-export")
def export_season_standings(
    club_id: str, season_id: int, *, sep: CsvSeparator | None = None, lang: str | None = None
) -> Call[str]:
    """The season table as CSV text (without the byte order mark), as ``export_standings``."""
    return Call(csv_text, params={"sep": sep, "lang": lang})


@operation("GET", SEASON + "/print", "season-print-read")
def get_season_print_page(club_id: str, season_id: int, *, lang: str | None = None) -> Call[str]:
    """The season table as a printable HTML page; ``lang``: ``en``, ``it``, ``sk`` or ``cs``."""
    return Call(text, params={"lang": lang})


@operation("GET", SEASON + "/live", "season-live-read")
def get_season_live_page(club_id: str, season_id: int, *, lang: str | None = None) -> Call[str]:
    """The season table for the club room (HTML, for a browser: it asks again every 30 s)."""
    return Call(text, params={"lang": lang})


@operation("PUT", TOURNAMENT + "/season", "tournament-season-set", auth="organizer")
def set_tournament_season(tournament_id: str, season_id: int | None) -> Call[TournamentRead]:
    """The tournament (of a club) counts in the club's season ``season_id``; None: in none."""
    return Call(one(TournamentRead), json=TournamentSeason(season_id=season_id))
