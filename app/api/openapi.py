"""The OpenAPI document as client generators need it.

FastAPI writes most of it from the routes; this module finishes it in one pass: every problem
response is ``application/problem+json`` only (FastAPI adds a second media type), operations
that read a body list the 400 and 415 they can give, creating a tournament says its bearer key
is optional and names its TRF body in an extension, the event stream's items name their
schemas, every enumeration is described, a default a request may leave out is said in words
(not as ``default``: see ``_defaults_in_words``), and schemas nothing refers to (FastAPI's own
validation error) are left out.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from fastapi import FastAPI

from app.services import club_events

TAGS: list[dict[str, Any]] = [
    {"name": "tournaments", "description": "Create, list, read, change, delete; the audit trail"},
    {"name": "players", "description": "The field: entries, late entries, renames, withdrawals"},
    {
        "name": "forbidden-pairs",
        "description": "Players not to be paired (organizer only): explicit pairs; teams by "
        "`avoid_same_team`",
    },
    {
        "name": "rounds",
        "description": "Swiss rounds: generate the next, read, undo the latest",
    },
    {"name": "results", "description": "Record, correct and clear results, one or a batch"},
    {
        "name": "reports",
        "description": "Players report results with their board's code; the organizer settles "
        "disputes",
    },
    {"name": "standings", "description": "The standings with their tiebreaks"},
    {"name": "final-phase", "description": "Semifinals, finals and the final ranking"},
    {"name": "tokens", "description": "Scorekeeper tokens and the organizer token's rotation"},
    {"name": "printing", "description": "The printable page and the CSV export"},
    {"name": "trf", "description": "The tournament as a FIDE Tournament Report File"},
    {"name": "check", "description": "Every round paired again and compared: the checker"},
    {"name": "pages", "description": "Pages for a room: the live scoreboard"},
    {"name": "events", "description": "Live events: the SSE stream and the webhook bodies"},
    {"name": "webhooks", "description": "Signed deliveries of a tournament's events"},
    {"name": "clubs", "description": "Clubs: their keys, their tournaments, their audit trail"},
    {"name": "club-players", "description": "A club's player register: search, merge"},
    {"name": "club-ratings", "description": "A club's ratings: the list, a player's history"},
    {
        "name": "club-events",
        "description": "A club's events: rating and season updates, polled, streamed (SSE) or "
        "delivered to the club's webhooks",
    },
    {"name": "seasons", "description": "A club's season tables over its evenings"},
    {"name": "health", "description": "Liveness and database reachability"},
]

ENUMS = {
    "Status": "`registration` (players may change), `swiss` (rounds being played), "
    "`final_phase` (semifinals and finals), `finished` (the final ranking is decided)",
    "Side": "`home` or `away`: a side of a match",
    "SeasonScoring": "How a season scores an evening: `places` (points by final place from "
    "the season's table), `points` (the evening's Swiss points), `average` (Swiss points per "
    "round played)",
    "DecidedBy": "How a level final-phase match was decided",
    "Stage": "`swiss` rounds, then the final phase's `round_of_64`, `round_of_32`, "
    "`round_of_16`, `quarterfinal` (a top cut), `semifinal`, `final`, `third_place`; a double "
    "elimination's `winners_round_1`–`winners_round_4`, `losers_round_1`–`losers_round_6`, "
    "`grand_final` and `grand_final_reset`",
    "Tiebreak": "The first tiebreak after points: `buchholz`, `goals`, `lim`, "
    "`sonneborn_berger`, `progressive`, `direct_encounter` or `points_per_match` (DYP's) "
    "(the order: `tiebreak_criteria`)",
    "PairingSystem": "`nearest` (nearest unplayed opponent), `lim` (Lim score groups), "
    "`dutch` (FIDE Dutch) or `dyp` (teams of two drawn every round, with `format: dyp`)",
    "FinalPhaseKind": "`semifinals` (1–4 then finals), `final` (1 v 2), `top_cut` (a knockout "
    "of `top_cut_size`, 2–64), `double_elimination` (winners' and losers' brackets and a "
    "grand final, `top_cut_size` 4–16) or `none`",
    "SlotSource": "Where a bracket slot's player comes from: `seed`, `winner` or `loser` of a "
    "match",
    "BracketSide": "Where a bracket match is: the `winners` bracket (all of a single "
    "elimination), the `losers` bracket or the `grand_final` (with its reset)",
    "FormatPreset": "`standard` (Swiss rounds, then semifinals), `short`, or `dyp` (draw "
    "your partner: individual players drawn into teams of two every round, no final phase)",
    "GroupAssignment": "How two groups are filled: `draw`, `seeded`, `pots` or `manual`",
    "PairKind": "`hard`: never paired; `soft`: avoided unless the round cannot be paired otherwise",
    "TeamRule": "`avoid_same_team`: `off`, or two players of one team are a `soft` or `hard` "
    "forbidden pair",
    "ColourRule": "The rule of the colour allocation that put `home` at home",
    "ClockAction": "What to do to a round's clock: `start` (from its whole duration), `pause`, "
    "`resume` or `end`",
    "ClockState": "A round's clock: `not_started`, `running` (also at 0: time is up), "
    "`paused` or `ended`",
}

PROBLEM_REF = "#/components/schemas/Problem"
PROBLEM = {"application/problem+json": {"schema": {"$ref": PROBLEM_REF}}}
UNKNOWN_QUERY = "An unknown query parameter (`unknown_query_parameter`) or an invalid value"
BODY_ERRORS = {
    "400": "The body's bytes cannot be decoded (`malformed_body`)",
    "415": "The body is not `Content-Type: application/json` (`unsupported_media_type`)",
}
CREATE = ("/v1/tournaments", "post")
CLUB_CREATE = ("/v1/clubs", "post")
OTHER_BODIES = "x-other-request-bodies"
"""Request bodies an operation takes besides its ``requestBody``, each chosen by its
``Content-Type``: the TRF of ``tournaments-create`` and of ``check``. Not in ``requestBody``:
openapi-python-client refuses an operation whose body may be ``text/plain`` (the whole
operation, not just that body), so a generated client would lose the JSON body too. Generators skip
``x-`` keys."""
TRF_BODY: dict[str, Any] = {
    "description": "A FIDE Tournament Report File (UTF-8, lines ended by CR): a `dutch` "
    "tournament with its whole history (docs/trf.md); a file that does not read is 422 "
    "`invalid_trf`, naming its line and column",
    "required": True,
    "content": {"text/plain": {"schema": {"type": "string"}}},
}
CREATE_415 = (
    "The body is neither `Content-Type: application/json` nor a TRF file as `text/plain` "
    "(`unsupported_media_type`)"
)
CHECK = ("/v1/check", "post")
CHECK_TRF_BODY: dict[str, Any] = {
    "description": "A FIDE Tournament Report File, read as the TRF import reads it (docs/trf.md), "
    "its rounds checked by `dutch`; a file that does not read is 422 `invalid_trf`",
    "required": True,
    "content": {"text/plain": {"schema": {"type": "string"}}},
}
STREAM = ("/v1/tournaments/{tournament_id}/events", "get")
CLUB_STREAM = ("/v1/clubs/{club_id}/events/stream", "get")


def polish_openapi(app: FastAPI) -> None:
    """Have ``app.openapi()`` return the finished document (built once, then kept)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            finish(generate())
        return app.openapi_schema  # type: ignore[return-value]

    app.openapi = openapi  # type: ignore[method-assign]


def finish(document: dict[str, Any]) -> None:
    for item in document["paths"].values():
        for operation in item.values():
            _only_problems(operation)
    for item in document.get("webhooks", {}).values():
        # What a receiver answers: any 2xx. FastAPI's 422 is about our own requests.
        responses = item["post"]["responses"]
        item["post"]["responses"] = {s: r for s, r in responses.items() if s.startswith("2")}
    create = document["paths"][CREATE[0]][CREATE[1]]
    create["security"] = [{}, {"HTTPBearer": []}]  # the create key only where one is set
    create["responses"]["415"]["description"] = CREATE_415
    create[OTHER_BODIES] = [TRF_BODY]
    club_create = document["paths"][CLUB_CREATE[0]][CLUB_CREATE[1]]
    club_create["security"] = [{}, {"HTTPBearer": []}]
    check = document["paths"][CHECK[0]][CHECK[1]]
    check["responses"]["415"]["description"] = CREATE_415
    check[OTHER_BODIES] = [CHECK_TRF_BODY]
    _describe_streams(document)
    for name, schema in document["components"]["schemas"].items():
        if "enum" in schema and name in ENUMS:
            schema["description"] = ENUMS[name]
    _drop_unused_schemas(document)
    _defaults_in_words(document)


def operations(document: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for section in ("paths", "webhooks"):
        for path, item in document.get(section, {}).items():
            for method, operation in item.items():
                yield path, method, operation


def _only_problems(operation: dict[str, Any]) -> None:
    """Every 4xx as problem+json; the 422 every operation can give (an unknown query
    parameter), and the 400 and 415 of a body."""
    responses: dict[str, Any] = operation["responses"]
    responses.setdefault("422", {"description": UNKNOWN_QUERY})
    if "requestBody" in operation:
        for status, description in BODY_ERRORS.items():
            responses.setdefault(status, {"description": description})
    for status, response in responses.items():
        # Every 4xx, and a 5xx that is a problem (the health check's 503 is its own body).
        if 400 <= int(status) < 500 or PROBLEM_REF in str(response.get("content")):
            response["content"] = PROBLEM
    operation["responses"] = dict(sorted(responses.items()))


def _describe_streams(document: dict[str, Any]) -> None:
    """A tournament's stream carries its events; a club's, the club's."""
    clubs = set(club_events.TYPES)
    webhooks = document.get("webhooks", {})
    _describe_stream(document, STREAM, [i for t, i in webhooks.items() if t not in clubs])
    _describe_stream(document, CLUB_STREAM, [i for t, i in webhooks.items() if t in clubs])


def _describe_stream(
    document: dict[str, Any], stream: tuple[str, str], webhooks: list[dict[str, Any]]
) -> None:
    """The stream's items, as OpenAPI 3.2 writes them (``itemSchema``), under an extension
    until 3.1's generators know it: an ``id``, the ``event`` type and the envelope as ``data``."""
    envelopes = [
        item["post"]["requestBody"]["content"]["application/json"]["schema"] for item in webhooks
    ]
    media = document["paths"][stream[0]][stream[1]]["responses"]["200"]["content"]
    media["text/event-stream"]["x-itemSchema"] = {
        "type": "object",
        "required": ["id", "event", "data"],
        "properties": {
            "id": {"type": "string", "description": "The event's `seq` (`Last-Event-ID`)"},
            "event": {"type": "string", "description": "The event type"},
            "data": {
                "type": "string",
                "contentMediaType": "application/json",
                "contentSchema": {"oneOf": envelopes},
            },
        },
    }


def _defaults_in_words(document: dict[str, Any]) -> None:
    """A property's ``default`` in a schema that a request body uses becomes a sentence of its
    description. openapi-typescript (7, as run by default) types a property that has a
    ``default`` as always present, even where ``required`` leaves it out, except in an inline
    request body (openapi-typescript issues #1741, #2012): the README's create body, without
    ``pairing`` and ``format``, failed ``tsc --strict``. Optional in a request, the property
    stays optional in generated clients; the server still fills it in."""
    schemas: dict[str, Any] = document["components"]["schemas"]
    for name in request_schemas(document):
        for prop in schemas[name].get("properties", {}).values():
            if "default" in prop:
                value = prop.pop("default")
                said = f"Default: `{value if isinstance(value, str) else json.dumps(value)}`"
                described = prop.get("description", "")
                if "default" not in described.lower():  # unless it says its default already
                    prop["description"] = f"{described}. {said}" if described else said


def request_schemas(document: dict[str, Any]) -> set[str]:
    """The schemas a request body of ``paths`` uses, directly or through another."""
    schemas: dict[str, Any] = document["components"]["schemas"]
    pending = [
        name
        for item in document["paths"].values()
        for operation in item.values()
        for name in _refs(operation.get("requestBody"))
    ]
    seen: set[str] = set()
    while pending:
        name = pending.pop()
        if name not in seen:
            seen.add(name)
            pending.extend(_refs(schemas[name]))
    return seen


def _drop_unused_schemas(document: dict[str, Any]) -> None:
    schemas: dict[str, Any] = document["components"]["schemas"]
    outside = {k: v for k, v in document.items() if k != "components"}
    used: set[str] = set()
    pending = list(_refs(outside))
    while pending:
        name = pending.pop()
        if name not in used:
            used.add(name)
            pending.extend(_refs(schemas[name]))
    for name in list(schemas):
        if name not in used:
            del schemas[name]


def _refs(node: Any) -> Iterator[str]:
    prefix = "#/components/schemas/"
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str) and value.startswith(prefix):
                yield value.removeprefix(prefix)
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)
