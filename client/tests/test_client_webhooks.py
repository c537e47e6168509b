"""The webhook helpers against real signed deliveries from the service: a receiver on loopback
gets the POSTs; the client verifies them and reads the event."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from svizzera_client import (
    Client,
    PlayerCreate,
    ResultWrite,
    SignatureError,
    TournamentCreate,
    WebhookCreate,
    read_delivery,
    verify_signature,
)
from svizzera_client.events import ResultRecordedEvent
from svizzera_client.models import DeliveryRead

WAIT = 60  # seconds: generous, for a busy machine
POLL = 0.05  # seconds between the receiver's checks for shutdown() (0.5 s by default)


@dataclass(frozen=True)
class Delivery:
    headers: dict[str, str]
    body: bytes


@pytest.fixture
def receiver() -> Iterator[tuple[str, queue.Queue[Delivery]]]:
    """A loopback HTTP server that keeps every POST and answers 200."""
    arrived: queue.Queue[Delivery] = queue.Queue()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            arrived.put(Delivery({k.lower(): v for k, v in self.headers.items()}, body))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, args=(POLL,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/hook", arrived
    server.shutdown()
    server.server_close()
    thread.join()


def delivered(client: Client, tournament_id: str, webhook_id: int) -> list[DeliveryRead]:
    """The delivered entries of the log, waiting (up to ``WAIT``) until there is one."""
    deadline = time.monotonic() + WAIT
    while not (
        found := client.list_deliveries(tournament_id, webhook_id, status="delivered").items
    ):
        assert time.monotonic() < deadline, "the delivery was never marked delivered"
        time.sleep(0.05)
    return found


def test_a_real_delivery_verifies_and_reads(
    client: Client, receiver: tuple[str, queue.Queue[Delivery]]
) -> None:
    url, arrived = receiver
    players = [PlayerCreate(name=n) for n in ("Anna", "Bruno")]
    created = client.create_tournament(TournamentCreate(name="Hooks", players=players))
    hook = client.create_webhook(
        created.id, WebhookCreate(url=url, events=["result.recorded"], description="test")
    )
    assert hook.secret.startswith("whsec_")
    assert [h.id for h in client.list_webhooks(created.id)] == [hook.id]
    assert client.get_webhook(created.id, hook.id).events == ["result.recorded"]

    round_ = client.generate_round(created.id)
    client.record_result(created.id, round_.matches[0].id, ResultWrite(home=3, away=1))
    delivery = arrived.get(timeout=WAIT)

    signature = delivery.headers["svizzera-signature"]
    event = read_delivery(hook.secret, signature, delivery.body)
    assert isinstance(event, ResultRecordedEvent)
    assert event.data.match.result is not None and event.data.match.result.home == 3
    assert delivery.headers["svizzera-event-id"] == f"{created.id}:{event.id}"
    assert verify_signature(hook.secret, signature, delivery.body.decode())

    # anything else is refused: another secret, a changed body, an old signature, no header
    timestamp = int(signature.split(",")[0].removeprefix("t="))
    assert not verify_signature("whsec_other", signature, delivery.body)
    assert not verify_signature(hook.secret, signature, delivery.body.replace(b"3", b"4", 1))
    assert not verify_signature(hook.secret, signature, delivery.body, now=timestamp + 301)
    assert verify_signature(hook.secret, signature, delivery.body, now=timestamp + 299)
    for header in (None, "", f"t={timestamp}", "v1=00"):
        with pytest.raises(SignatureError):
            read_delivery(hook.secret, header, delivery.body)

    # the log has it delivered (once the worker has recorded the answer); a redelivery comes
    # again with the same ids
    (logged,) = delivered(client, created.id, hook.id)
    assert (logged.event_id, logged.event_type, logged.attempts) == (event.id, event.type, 1)
    again = client.redeliver(created.id, hook.id, logged.id)
    assert again.id == logged.id
    resent = arrived.get(timeout=WAIT)
    assert resent.headers["svizzera-delivery-id"] == delivery.headers["svizzera-delivery-id"]
    assert (
        read_delivery(hook.secret, resent.headers["svizzera-signature"], resent.body).id == event.id
    )

    client.delete_webhook(created.id, hook.id)
    assert client.list_webhooks(created.id) == []
