"""The OpenAPI document: what client generators need, and a committed snapshot.

A change of the API shows here first: if ``test_the_document_matches_the_snapshot`` fails and
the change is meant, regenerate the snapshot with ``.venv/bin/python -m tests.openapi_snapshot``
and commit ``docs/openapi.json`` with the change (its diff is the API change, for review).
"""

from __future__ import annotations

from typing import Any

import pytest

from app.api.openapi import operations, request_schemas
from tests.openapi_snapshot import SNAPSHOT, dump, served


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    return served()


def test_the_document_matches_the_snapshot(document: dict[str, Any]) -> None:
    assert SNAPSHOT.read_text(encoding="utf-8") == dump(document), (
        "the API changed: if on purpose, run `.venv/bin/python -m tests.openapi_snapshot` "
        "and commit docs/openapi.json"
    )


def test_every_operation_is_described_tagged_and_lists_its_problems(
    document: dict[str, Any],
) -> None:
    tags = {tag["name"] for tag in document["tags"]}
    assert all(tag.get("description") for tag in document["tags"])
    used = set()
    for path, method, operation in operations(document):
        where = f"{method.upper()} {path}"
        assert operation.get("summary") and operation.get("description"), where
        assert len(operation["tags"]) == 1 and operation["tags"][0] in tags, where
        used.add(operation["tags"][0])
        for status, response in operation["responses"].items():
            if status.startswith("4") or "Problem" in str(response):
                assert list(response["content"]) == ["application/problem+json"], (where, status)
                assert response["content"]["application/problem+json"]["schema"] == {
                    "$ref": "#/components/schemas/Problem"
                }
        if path in document.get("paths", {}):
            assert "422" in operation["responses"], where
        if "requestBody" in operation and path in document["paths"]:
            assert {"400", "415"} <= set(operation["responses"]), where
    assert used == tags


def test_schemas_are_used_described_and_plain_json_schema(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    text = dump({k: v for k, v in document.items() if k != "components"}) + dump(schemas)
    for name, schema in schemas.items():
        assert f'"#/components/schemas/{name}"' in text, f"{name} is not used"
        if "enum" in schema:
            assert schema.get("description"), f"enumeration {name} is not described"
    pydantic_words = ('"ge":', '"le":', '"gt":', '"lt":', '"multiple_of":', '"min_length":')
    assert not [word for word in pydantic_words if word in dump(schemas)]
    assert "HTTPValidationError" not in schemas
    points = schemas["PointsTableSchema"]["properties"]["win"]
    assert (points["minimum"], points["maximum"], points["multipleOf"]) == (0, 100, 0.5)


def test_creating_says_its_key_is_optional_and_the_stream_its_events(
    document: dict[str, Any],
) -> None:
    create = document["paths"]["/v1/tournaments"]["post"]
    assert create["security"] == [{}, {"HTTPBearer": []}]
    assert "`text/plain`" in create["responses"]["415"]["description"]  # a TRF is a body too
    # The TRF body in an extension, as a Request Body Object; requestBody keeps JSON alone
    # (openapi-python-client refuses a text/plain one, .ci/clients).
    assert list(create["requestBody"]["content"]) == ["application/json"]
    (trf,) = create["x-other-request-bodies"]
    assert trf["required"] is True
    assert trf["content"] == {"text/plain": {"schema": {"type": "string"}}}
    bodies = {
        kind: item["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"].rsplit(
            "/", 1
        )[1]
        for kind, item in document["webhooks"].items()
    }
    club_types = {"rating.updated", "season.updated", "season.deleted"}
    streams = {
        "/v1/tournaments/{tournament_id}/events": {
            b for kind, b in bodies.items() if kind not in club_types
        },
        "/v1/clubs/{club_id}/events/stream": {
            "RatingUpdatedEvent",
            "SeasonUpdatedEvent",
            "SeasonDeletedEvent",
        },
    }
    for path, bodies_of_stream in streams.items():
        media = document["paths"][path]["get"]["responses"]["200"]["content"]
        assert list(media) == ["text/event-stream"]
        events = media["text/event-stream"]["x-itemSchema"]["properties"]["data"]["contentSchema"]
        named = {ref["$ref"].rsplit("/", 1)[1] for ref in events["oneOf"]}
        assert named == bodies_of_stream, path
    assert "RoundUndoneEvent" in streams["/v1/tournaments/{tournament_id}/events"]
    assert len(streams["/v1/tournaments/{tournament_id}/events"]) >= 10
    assert {bodies[t] for t in club_types} == streams["/v1/clubs/{club_id}/events/stream"]
    club_event = document["components"]["schemas"]["RatingUpdatedEvent"]["properties"]
    assert "club_id" in club_event and "tournament_id" not in club_event


def test_what_a_request_may_leave_out_has_no_default_keyword(document: dict[str, Any]) -> None:
    # openapi-typescript types a property with a `default` as always present (.ci/clients'
    # evening creates without `pairing` and `format` under tsc --strict): defaults in words.
    schemas = document["components"]["schemas"]
    create = schemas["TournamentCreate"]
    assert create["required"] == ["name", "players"]
    assert create["properties"]["pairing"]["description"].endswith(". Default: `nearest`")
    assert create["properties"]["format"]["description"].endswith(". Default: `standard`")
    win = schemas["PointsTableSchema"]["properties"]["win"]
    assert win["description"].endswith("Default: `3`")
    requested = request_schemas(document)
    assert {"TournamentCreate", "PlayerCreate", "PointsTableSchema", "ResultEntry"} <= requested
    assert not [n for n in requested if '"default":' in dump(schemas[n].get("properties", {}))]
