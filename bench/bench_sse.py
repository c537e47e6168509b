"""Server-sent events on PostgreSQL (figures in docs/performance.md, "Events: server-sent events").

1. latency: one stream open; results are PUT one after another (each waits for its event);
   the time from the PUT's return to the event's arrival at the stream (median, p99), and
   from the PUT's start (the whole write plus delivery);
2. capacity: ``--clients`` streams on one worker (spread over ``--tournaments`` tournaments)
   while results keep arriving (``--results`` PUTs at ``--rate`` per second); every stream
   must receive every event; the time from each PUT's return to the arrival at the last of
   the streams of its tournament (median, p99), errors counted.

Loopback only; every loop is bounded and the script stops by itself. The server is a uvicorn
subprocess started the README way; the clients run in this process (one asyncio loop), on the
same machine, so they share its cores with the server.

    python bench/bench_sse.py --postgres postgresql+psycopg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import statistics
import time
import uuid
from dataclasses import dataclass, field

import httpx

from tests.databases import PostgresServer, migrate
from tests.server import serve


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


@dataclass
class Stream:
    """One SSE client: the arrival time of each event id."""

    arrivals: dict[int, float] = field(default_factory=dict)
    error: str | None = None
    connected: asyncio.Event = field(default_factory=asyncio.Event)
    seen: asyncio.Condition = field(default_factory=asyncio.Condition)


async def read_stream(client: httpx.AsyncClient, url: str, stream: Stream) -> None:
    try:
        async with client.stream("GET", url) as response:
            if response.status_code != 200:
                stream.error = f"status {response.status_code}"
                return
            stream.connected.set()
            async for line in response.aiter_lines():
                if line.startswith("data: "):
                    seq = json.loads(line[6:])["id"]
                    stream.arrivals[seq] = time.perf_counter()
                    async with stream.seen:
                        stream.seen.notify_all()
    except (httpx.HTTPError, OSError) as exc:
        stream.error = repr(exc)
    finally:
        stream.connected.set()


async def create(client: httpx.AsyncClient, base: str) -> tuple[str, dict[str, str], list[int]]:
    body = {"name": "Bench", "players": [{"name": f"P{i:02d}"} for i in range(16)], "seed": 1}
    created = (await client.post(f"{base}/v1/tournaments", json=body)).json()
    tid, auth = created["id"], {"Authorization": f"Bearer {created['organizer_token']}"}
    matches = (await client.post(f"{base}/v1/tournaments/{tid}/rounds", headers=auth)).json()
    return tid, auth, [m["id"] for m in matches["matches"]]


async def put(
    client: httpx.AsyncClient, base: str, tid: str, auth: dict[str, str], match: int, i: int
) -> tuple[float, float]:
    start = time.perf_counter()
    response = await client.put(
        f"{base}/v1/tournaments/{tid}/matches/{match}/result",
        json={"home": i % 5, "away": (i // 5) % 3},
        headers=auth,
    )
    response.raise_for_status()
    return start, time.perf_counter()


async def latency(base: str, count: int) -> dict[str, float]:
    limits = httpx.Limits(max_connections=10)
    async with httpx.AsyncClient(timeout=30, limits=limits) as client:
        tid, auth, matches = await create(client, base)
        stream = Stream()
        reader = asyncio.create_task(
            read_stream(client, f"{base}/v1/tournaments/{tid}/events?timeout=600", stream)
        )
        await stream.connected.wait()
        while len(stream.arrivals) < 2:  # the replay: created, round generated
            await asyncio.sleep(0.01)
        after_return: list[float] = []
        after_start: list[float] = []
        for i in range(count):
            seq = 3 + i
            started, returned = await put(client, base, tid, auth, matches[i % len(matches)], i)
            async with stream.seen:
                await asyncio.wait_for(stream.seen.wait_for(lambda s=seq: s in stream.arrivals), 10)
            arrived = stream.arrivals[seq]
            after_return.append(max(0.0, arrived - returned) * 1000)
            after_start.append((arrived - started) * 1000)
        reader.cancel()
        early = sum(1 for v in after_return if v == 0.0)
        return {
            "median after PUT returned (ms)": statistics.median(after_return),
            "p99 after PUT returned (ms)": percentile(after_return, 99),
            "max after PUT returned (ms)": max(after_return),
            "median after PUT started (ms)": statistics.median(after_start),
            "p99 after PUT started (ms)": percentile(after_start, 99),
            "events that arrived before the PUT returned": float(early),
        }


async def capacity(
    base: str, clients: int, tournaments: int, results: int, rate: float
) -> dict[str, float]:
    limits = httpx.Limits(max_connections=clients + 20, max_keepalive_connections=clients + 20)
    timeout = httpx.Timeout(60, connect=30)
    async with (
        httpx.AsyncClient(timeout=timeout, limits=limits) as streams_client,
        httpx.AsyncClient(timeout=timeout) as writer,
    ):
        games = [await create(writer, base) for _ in range(tournaments)]
        streams: list[tuple[int, Stream]] = []
        tasks = []
        connect_start = time.perf_counter()
        for n in range(clients):
            index = n % tournaments
            stream = Stream()
            url = f"{base}/v1/tournaments/{games[index][0]}/events?timeout=600"
            streams.append((index, stream))
            tasks.append(asyncio.create_task(read_stream(streams_client, url, stream)))
        await asyncio.wait_for(asyncio.gather(*(s.connected.wait() for _, s in streams)), 120)
        while any(len(s.arrivals) < 2 and s.error is None for _, s in streams):
            await asyncio.sleep(0.05)
        connected_in = time.perf_counter() - connect_start
        returns: dict[tuple[int, int], float] = {}
        for i in range(results):
            index = i % tournaments
            tid, auth, matches = games[index]
            seq = 3 + i // tournaments
            _, returned = await put(writer, base, tid, auth, matches[i % len(matches)], i)
            returns[(index, seq)] = returned
            await asyncio.sleep(1 / rate)
        deadline = time.perf_counter() + 30
        expected = {(index, seq) for index, seq in returns}
        while time.perf_counter() < deadline:
            if all(
                s.error is not None or all(seq in s.arrivals for i, seq in expected if i == index)
                for index, s in streams
            ):
                break
            await asyncio.sleep(0.1)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    errors = sum(1 for _, s in streams if s.error is not None)
    missing = sum(
        1 for index, s in streams for i, seq in expected if i == index and seq not in s.arrivals
    )
    to_last: list[float] = []
    for (index, seq), returned in returns.items():
        arrivals = [s.arrivals[seq] for i, s in streams if i == index and seq in s.arrivals]
        if arrivals:
            to_last.append(max(0.0, max(arrivals) - returned) * 1000)
    return {
        "streams": float(clients),
        "streams connected and replayed in (s)": connected_in,
        "stream errors": float(errors),
        "events missing at a stream": float(missing),
        "events delivered": float(sum(len(s.arrivals) for _, s in streams)),
        "median PUT return -> last stream (ms)": statistics.median(to_last),
        "p99 PUT return -> last stream (ms)": percentile(to_last, 99),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--postgres", required=True, help="a server URL; a scratch database is made"
    )
    parser.add_argument("--puts", type=int, default=300, help="results of the latency run")
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--tournaments", type=int, default=10)
    parser.add_argument("--results", type=int, default=100)
    parser.add_argument("--rate", type=float, default=10.0, help="results per second")
    args = parser.parse_args()

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 4 * args.clients)), hard))
    server = PostgresServer(args.postgres)
    name = f"svz_bench_{uuid.uuid4().hex[:8]}"
    url = server.create(name)
    try:
        migrate(url)
        with serve(url, workers=1) as base:
            for key, value in asyncio.run(latency(base, args.puts)).items():
                print(f"latency, 1 stream, {args.puts} results: {key} = {value:.1f}")
            figures = asyncio.run(
                capacity(base, args.clients, args.tournaments, args.results, args.rate)
            )
            for key, value in figures.items():
                label = f"capacity, 1 worker, {args.results} results at {args.rate}/s"
                print(f"{label}: {key} = {value:.1f}")
    finally:
        server.drop(name)
        server.admin.dispose()


if __name__ == "__main__":
    main()
