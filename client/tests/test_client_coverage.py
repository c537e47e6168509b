"""The client keeps in step with the server's ``/openapi.json``: every operation has a method on
both clients, every schema a model with the same fields, every event type a class.

When one of these fails after an API change, client/README.md ("Keeping up with the API")
says what to add.
"""

from __future__ import annotations

from typing import Any, get_args

import httpx
import pytest
from live_server import LiveServer
from pydantic import BaseModel

from svizzera_client import AsyncClient, Client, events, models
from svizzera_client.async_client import AsyncOperation
from svizzera_client.client import SyncOperation
from svizzera_client.operations import OPERATIONS

# FastAPI's own validation schemas: the client reads them as ``ApiError.errors``.
NOT_MODELLED = {"HTTPValidationError", "ValidationError"}


@pytest.fixture(scope="module")
def openapi(server: LiveServer) -> dict[str, Any]:
    # Generous: the first /openapi.json is built on request, seconds on a busy machine.
    document: dict[str, Any] = httpx.get(f"{server.url}/openapi.json", timeout=60).json()
    return document


def test_every_operation_has_a_method_on_both_clients(openapi: dict[str, Any]) -> None:
    served = {
        op["operationId"]: (method.upper(), path)
        for path, item in openapi["paths"].items()
        for method, op in item.items()
    }
    missing = sorted(set(served) - set(OPERATIONS))
    assert not missing, (
        f"operations without a client method: {missing}; add a builder to "
        "client/svizzera_client/operations.py and one line to Client and AsyncClient"
    )
    assert not set(OPERATIONS) - set(served), "client methods for operations the server lacks"
    for operation_id, (method, path) in served.items():
        operation = OPERATIONS[operation_id]
        assert (operation.method, operation.path) == (method, path), operation_id
        for cls, wrapper in ((Client, SyncOperation), (AsyncClient, AsyncOperation)):
            attribute = cls.__dict__.get(operation.name)
            assert attribute is not None, f"{cls.__name__} has no {operation.name}()"
            if isinstance(attribute, wrapper):  # (the event stream is a method of its own)
                assert attribute.build.__name__ == operation.name, (cls, operation_id)


def client_class(name: str) -> Any:
    return getattr(models, name, None) or getattr(events, name, None)


def test_every_schema_has_a_model_with_its_fields(openapi: dict[str, Any]) -> None:
    for name, schema in openapi["components"]["schemas"].items():
        if name in NOT_MODELLED:
            continue
        found = client_class(name)
        assert found is not None, f"schema {name} has no class in svizzera_client.models"
        if "enum" in schema:
            assert set(get_args(found)) == set(schema["enum"]), f"the values of {name}"
            continue
        assert isinstance(found, type) and issubclass(found, BaseModel), name
        fields = set(found.model_fields)
        assert fields == set(schema.get("properties", {})), f"the fields of {name}"
        if issubclass(found, models.Request):
            required = {f for f, info in found.model_fields.items() if info.is_required()}
            assert required == set(schema.get("required", [])), f"required fields of {name}"


def test_every_event_type_has_a_class(openapi: dict[str, Any]) -> None:
    """A tournament's types and a club's, apart (their envelopes name different owners)."""
    documented = set(openapi["webhooks"])
    assert set(events.EVENT_CLASSES) | set(events.CLUB_EVENT_CLASSES) == documented
    assert not set(events.EVENT_CLASSES) & set(events.CLUB_EVENT_CLASSES)
    assert set(get_args(models.EventType)) == set(events.EVENT_CLASSES)
    assert set(get_args(models.ClubEventType)) == set(events.CLUB_EVENT_CLASSES)
