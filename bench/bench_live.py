"""The live page under a crowd: ``--pages`` open pages of one tournament on one worker while
results arrive (figures in docs/performance.md, "Live page: 500 open pages").

Each simulated page does what ``app/static/live.js`` does: it loads the page, opens the event
stream after the page's ``last_event_id``, shows a Swiss result's board from the event itself
and reads the standings again when the event's ``version`` is newer than its copy
(``If-None-Match``; one read at a time, events during a read fold into one more), and on any
other event fetches the page again (one fetch at a time, likewise). The organizer PUTs
``--results`` results at ``--rate`` per second (a round complete, the next one generated, and
so on). Measured: events delivered and missing, the time from each result's PUT until the last
page has its event (= shows its board) and until the last page has read standings that include
it, from each new round's POST until the last page has redrawn it from the server, the
standings reads (200 and 304), errors, and the server's resident memory before and with the
pages open (per open page).

Loopback only; every loop is bounded and the script stops by itself. The server is a uvicorn
subprocess started the README way, one worker; the simulated pages run in this process (one
asyncio loop) on the same cores.

    PYTHONPATH=. python bench/bench_live.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import re
import resource
import statistics
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.databases import PostgresServer, migrate
from tests.server import serve

LAST_EVENT = re.compile(rb'data-last-event-id="(\d+)"')
VERSION = re.compile(rb'data-version="(\d+)"')
READ_SPREAD = 1.0
READ_GAP = 3.0
"""Seconds, as ``READ_SPREAD_MS`` and ``READ_GAP_MS`` in ``app/static/live.js``."""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def server_rss_kib(port: int) -> int:
    """Resident memory of the uvicorn process listening on ``port`` (from /proc)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            command = (proc / "cmdline").read_bytes().split(b"\0")
            status = (proc / "status").read_text()
        except OSError:
            continue
        if b"uvicorn" in command[0] + (command[1] if len(command) > 1 else b"") and (
            str(port).encode() in command
        ):
            return int(re.search(r"VmRSS:\s+(\d+)", status).group(1))  # type: ignore[union-attr]
    raise RuntimeError("server process not found")


@dataclass
class Page:
    """One open page: when each event arrived, and when a redraw showing it was fetched."""

    url: str
    events: dict[int, float] = field(default_factory=dict)
    drawn: dict[int, float] = field(default_factory=dict)
    """The page's own last_event_id after a fetch -> when that fetch completed."""
    read: dict[int, float] = field(default_factory=dict)
    """The version of standings shown (a standings read or a redraw) -> since when."""
    standings_version: int = 0
    wanted: int = 0
    etag: str | None = None
    answers: dict[int, int] = field(default_factory=dict)
    """Standings reads by HTTP status (200, 304)."""
    retries: int = 0
    """Fetches and streams opened again after a transport error (as the script does)."""
    error: str | None = None
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    dirty: asyncio.Event = field(default_factory=asyncio.Event)
    stale: asyncio.Event = field(default_factory=asyncio.Event)
    rng: random.Random = field(default_factory=random.Random)
    """Seeded per page (``crowd``): pages pause for different times, as browsers do."""

    def shows(self, version: int) -> None:
        if version > self.standings_version:
            self.standings_version = version
            self.read.setdefault(version, time.perf_counter())


RETRIES = 5


async def fetch(client: httpx.AsyncClient, page: Page) -> int:
    """GET the page (again after a transport error, up to ``RETRIES`` times, 1 s apart, as the
    script does); its ``last_event_id``."""
    for attempt in range(RETRIES + 1):
        try:
            response = await client.get(page.url)
            break
        except httpx.TransportError:
            if attempt == RETRIES:
                raise
            page.retries += 1
            await asyncio.sleep(1)
    response.raise_for_status()
    match = LAST_EVENT.search(response.content)
    version = VERSION.search(response.content)
    assert match is not None and version is not None
    page.shows(int(version.group(1)))
    return int(match.group(1))


def applies_in_place(event: dict[str, Any]) -> bool:
    """What the script shows without a redraw: a Swiss result's board (``live.js``,
    ``patchBoard``); the standings it then reads again."""
    return event["type"].startswith("result.") and event["data"]["match"]["stage"] == "swiss"


async def redraw(client: httpx.AsyncClient, page: Page) -> None:
    while True:
        await page.dirty.wait()
        page.dirty.clear()
        shown = await fetch(client, page)
        page.drawn.setdefault(shown, time.perf_counter())


async def read_standings(client: httpx.AsyncClient, page: Page, url: str) -> None:
    """Read the standings when a result made them stale, conditional on the ETag held, after a
    random pause of up to ``READ_SPREAD`` and at least ``READ_GAP`` after the previous read; a
    read queued during one is dropped when that one included it (as ``readStandings`` does)."""
    last_read = -float("inf")
    while True:
        await page.stale.wait()
        page.stale.clear()
        gap = last_read + READ_GAP - time.perf_counter()
        await asyncio.sleep(max(page.rng.random() * READ_SPREAD, gap))
        page.stale.clear()  # results meanwhile: this read includes them
        if page.wanted <= page.standings_version:
            continue
        last_read = time.perf_counter()
        headers = {"If-None-Match": page.etag} if page.etag else {}
        response = await client.get(url, headers=headers)
        page.answers[response.status_code] = page.answers.get(response.status_code, 0) + 1
        if response.status_code == 200:
            page.etag = response.headers["ETag"]
            page.shows(int(page.etag.strip('"')))
        elif response.status_code != 304:
            response.raise_for_status()


async def follow(client: httpx.AsyncClient, page: Page, events_url: str, after: int) -> None:
    """The event stream, opened again after the last event seen when it breaks."""
    for _ in range(RETRIES + 1):
        try:
            url = f"{events_url}?after={after}&timeout=900"
            async with client.stream("GET", url) as stream:
                stream.raise_for_status()
                page.ready.set()
                async for line in stream.aiter_lines():
                    if line.startswith("data: "):
                        event = json.loads(line[6:])
                        after = event["id"]
                        page.events[after] = time.perf_counter()
                        if not applies_in_place(event):
                            page.dirty.set()
                        elif event["data"]["version"] > page.standings_version:
                            page.wanted = event["data"]["version"]
                            page.stale.set()
            return
        except httpx.TransportError:
            page.retries += 1
            await asyncio.sleep(1)


async def run_page(client: httpx.AsyncClient, page: Page, events_url: str) -> None:
    drawer: asyncio.Task[None] | None = None
    reader: asyncio.Task[None] | None = None
    try:
        after = await fetch(client, page)
        drawer = asyncio.create_task(redraw(client, page))
        standings = events_url.removesuffix("events") + "standings"
        reader = asyncio.create_task(read_standings(client, page, standings))
        await follow(client, page, events_url, after)
    except (httpx.HTTPError, OSError, AssertionError) as exc:
        page.error = repr(exc)
    finally:
        page.ready.set()
        for task in (drawer, reader):
            if task is not None:
                task.cancel()


async def crowd(base: str, port: int, pages_count: int, results: int, rate: float) -> None:
    limits = httpx.Limits(max_connections=2 * pages_count + 20, max_keepalive_connections=None)
    timeout = httpx.Timeout(120, connect=60)
    async with (
        httpx.AsyncClient(timeout=timeout, limits=limits) as pages_client,
        httpx.AsyncClient(  # a fresh connection per call: a PUT is never retried
            timeout=timeout, limits=httpx.Limits(max_keepalive_connections=0)
        ) as organizer,
    ):
        body = {"name": "Bench", "players": [{"name": f"P{i:02d}"} for i in range(16)], "seed": 1}
        created = (await organizer.post(f"{base}/v1/tournaments", json=body)).json()
        tid, auth = created["id"], {"Authorization": f"Bearer {created['organizer_token']}"}
        api = f"{base}/v1/tournaments/{tid}"
        round_ = (await organizer.post(f"{api}/rounds", headers=auth)).json()
        (await organizer.get(f"{api}/live")).raise_for_status()  # warm: templates, catalogue
        gc.collect()
        rss_before = server_rss_kib(port)

        pages = [Page(f"{api}/live", rng=random.Random(i)) for i in range(pages_count)]
        begin = time.perf_counter()
        tasks = [asyncio.create_task(run_page(pages_client, p, f"{api}/events")) for p in pages]
        await asyncio.wait_for(asyncio.gather(*(p.ready.wait() for p in pages)), 300)
        opened_in = time.perf_counter() - begin
        await asyncio.sleep(1)
        rss_open = server_rss_kib(port)

        returned: dict[int, float] = {}
        versions: dict[int, int] = {}
        generated_at: dict[int, float] = {}
        pending = [m["id"] for m in round_["matches"]]
        rounds = 1
        for i in range(results):
            if not pending:
                generated = await organizer.post(f"{api}/rounds", headers=auth)
                if generated.status_code != 201:
                    break  # the Swiss rounds are over
                at = time.perf_counter()
                rounds += 1
                pending = [m["id"] for m in generated.json()["matches"]]
                generated_at[(await organizer.get(api)).json()["last_event_id"]] = at
                await asyncio.sleep(1 / rate)
            response = await organizer.put(
                f"{api}/matches/{pending.pop(0)}/result",
                json={"home": i % 4, "away": (i // 4) % 3},
                headers=auth,
            )
            response.raise_for_status()
            at = time.perf_counter()
            seq = (await organizer.get(api)).json()["last_event_id"]
            returned[seq] = at
            versions[seq] = int(response.headers["ETag"].strip('"'))
            await asyncio.sleep(1 / rate)
        last = max(returned)
        last_round = max(generated_at, default=0)
        deadline = time.perf_counter() + 60
        while time.perf_counter() < deadline and not all(
            p.error is not None
            or (
                last in p.events
                and max(p.drawn, default=0) >= last_round
                and p.standings_version >= versions[last]
            )
            for p in pages
        ):
            await asyncio.sleep(0.1)
        rss_end = server_rss_kib(port)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    errors = [p.error for p in pages if p.error is not None]
    expected = set(range(min(returned), last + 1))  # every event from the first result on
    missing = sum(1 for p in pages for seq in expected if seq not in p.events)
    to_event = [
        max(0.0, max(p.events[seq] for p in pages if seq in p.events) - at) * 1000
        for seq, at in returned.items()
    ]
    to_standings = []
    for seq, at in returned.items():
        shown = [
            min((t for v, t in p.read.items() if v >= versions[seq]), default=None)
            for p in pages
            if p.error is None
        ]
        if None not in shown:
            to_standings.append(max(0.0, max(t for t in shown if t is not None) - at) * 1000)
    to_drawn = []
    for seq, at in generated_at.items():
        draws = [
            min((t for s, t in p.drawn.items() if s >= seq), default=None)
            for p in pages
            if p.error is None
        ]
        if None not in draws:
            to_drawn.append(max(0.0, max(d for d in draws if d is not None) - at) * 1000)
    delivered = sum(len(p.events) for p in pages)
    print(f"pages: {pages_count} on one tournament of 16 players, one worker")
    print(
        f"pages loaded and streams open in {opened_in:.1f} s; pages failed: {len(errors)}; "
        f"fetches or streams opened again after a transport error: "
        f"{sum(p.retries for p in pages)}"
    )
    for error in errors[:5]:
        print(f"  error: {error}")
    print(f"results: {len(returned)} at {rate}/s over {rounds} rounds")
    print(f"events delivered: {delivered}; missing: {missing}")
    print(
        "result PUT return -> shown on the last page (applied from the event): median "
        f"{statistics.median(to_event):.0f} ms, p95 {percentile(to_event, 95):.0f} ms, "
        f"max {max(to_event):.0f} ms"
    )
    if to_standings:
        print(
            "result PUT return -> the last page has read standings including it: median "
            f"{statistics.median(to_standings):.0f} ms, p95 "
            f"{percentile(to_standings, 95):.0f} ms, max {max(to_standings):.0f} ms "
            f"({len(to_standings)} of {len(returned)} results read everywhere)"
        )
    answers = {s: sum(p.answers.get(s, 0) for p in pages) for s in (200, 304)}
    print(
        f"standings reads: {answers[200]} answered 200, {answers[304]} answered 304 "
        f"({sum(answers.values()) / pages_count:.1f} a page for {len(returned)} results)"
    )
    if to_drawn:
        print(
            f"round POST return -> last page redrawn from the server: "
            f"{', '.join(f'{v:.0f} ms' for v in to_drawn)} "
            f"({len(to_drawn)} of {len(generated_at)} new rounds redrawn everywhere)"
        )
    print(
        f"server RSS: {rss_before / 1024:.1f} MiB before, {rss_open / 1024:.1f} MiB with the "
        f"pages open ({(rss_open - rss_before) / pages_count:.1f} KiB per open page), "
        f"{rss_end / 1024:.1f} MiB at the end"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--postgres", required=True, help="a server URL; a scratch database is made"
    )
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--results", type=int, default=24)
    parser.add_argument("--rate", type=float, default=1.0, help="results per second")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 8 * args.pages)), hard))
    server = PostgresServer(args.postgres)
    name = f"svz_bench_{uuid.uuid4().hex[:8]}"
    url = server.create(name)
    try:
        migrate(url)
        with serve(url, workers=1) as base:
            port = int(base.rsplit(":", 1)[1])
            asyncio.run(crowd(base, port, args.pages, args.results, args.rate))
    finally:
        server.drop(name)
        server.admin.dispose()


if __name__ == "__main__":
    main()
