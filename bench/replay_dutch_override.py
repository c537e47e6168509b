"""Record a ``dutch`` long override once, then pair single rounds of it again.

A late round of a 256-player override cannot be timed without pairing every round before it
(``bench_long_override.py`` does, several minutes of CPU). This plays the override once
(``tests/domain/dutch_simulation.py``, every game played, results 1, ½, 0 equally likely) and
keeps each round's input and pairing in a file; then any round is paired again from the file,
timed (CPU, best of ``--repeat``), compared with the recorded pairing (boards, PAB and
explanation), and profiled on demand. Record with one version of the engine and replay with
another to compare them: a difference is reported by round.

    .venv/bin/python bench/replay_dutch_override.py record /tmp/o256.pickle --size 256
    .venv/bin/python bench/replay_dutch_override.py replay /tmp/o256.pickle 150-230 --repeat 2
    .venv/bin/python bench/replay_dutch_override.py replay /tmp/o256.pickle 172 --profile
    .venv/bin/python bench/replay_dutch_override.py compare /tmp/o256.pickle 120-252 \
        --against 9d2d9fa --repeat 2

``compare`` times this tree beside another commit's, in one process, round by round, taking
turns at going first: the VM's speed drifts by tens of percent within an hour, so two runs one
after the other compare the hours more than the code. The other commit's ``app/domain`` is
taken out with ``git archive`` as a package of its own (``svz_then``, its imports rewritten),
and the file is unpickled a second time into its classes: the domain compares its enums by
identity, so objects of this tree's classes would make the other tree pair differently. Both
trees' boards and PAB must equal the file's; the rounds whose explanation differs from the
file's are counted (a change of the engine may change how a bracket reads, ``paired_with``).

The file is a pickle: read it only from a run of your own.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import importlib
import io
import pickle
import pstats
import re
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from app.domain.pairing.dutch import pair_dutch
from app.domain.pairing.dutch.types import DutchInput, DutchPairing
from tests.domain.dutch_simulation import play

Recorded = list[tuple[DutchInput, DutchPairing]]


def record(path: Path, size: int, seed: int) -> None:
    rounds: Recorded = []

    def pair(round_: DutchInput) -> DutchPairing:
        pairing = pair_dutch(round_)
        rounds.append((round_, pairing))
        return pairing

    last = size if size % 2 else size - 1
    paired = play(seed, size, last, lambda round_, pairing: None, pair=pair, mishaps=False)
    path.write_bytes(pickle.dumps(rounds))
    print(f"{paired} rounds of {size} players (seed {seed}) recorded in {path}")


def _numbers(spec: str, count: int) -> list[int]:
    """``all``, or rounds and ranges ``a-b`` separated by commas."""
    if spec == "all":
        return list(range(1, count + 1))
    numbers: list[int] = []
    for part in spec.split(","):
        low, _, high = part.partition("-")
        numbers.extend(range(int(low), int(high or low) + 1))
    return numbers


def replay(path: Path, spec: str, repeat: int, profile: bool) -> None:
    rounds: Recorded = pickle.loads(path.read_bytes())
    # The recording is millions of objects that the collector would otherwise walk whenever
    # a pairing's allocations trigger it (0.5 s on the first round of a 256-player file, and
    # spikes later): kept out of its sight, a round's time is the pairing's.
    gc.collect()
    gc.freeze()
    times: dict[int, float] = {}
    differ: list[int] = []
    for number in _numbers(spec, len(rounds)):
        round_, recorded = rounds[number - 1]
        best = float("inf")
        profiler = cProfile.Profile() if profile else None
        for _ in range(repeat):
            if profiler is not None:
                profiler.enable()
            cpu = time.process_time()
            pairing = pair_dutch(round_)
            best = min(best, time.process_time() - cpu)
            if profiler is not None:
                profiler.disable()
        times[number] = best
        if pairing != recorded or pairing.explanation != recorded.explanation:
            differ.append(number)
        if profiler is not None:
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)
    worst = max(times, key=times.__getitem__)
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    for number, took in times.items():
        print(f"round {number}: {took:.3f} s CPU")
    print(
        f"{len(times)} rounds, worst {times[worst]:.3f} s CPU (round {worst}), "
        f"mean {sum(times.values()) / len(times):.3f} s; different from the file: "
        f"{differ or 'none'}; load {load}"
    )


_ROOT = Path(__file__).resolve().parent.parent
_THEN = "svz_then"


class _Then(pickle.Unpickler):
    """Unpickles the recording into the other commit's classes (``svz_then``)."""

    def find_class(self, module: str, name: str) -> object:
        if module == "app" or module.startswith("app."):
            module = _THEN + module[3:]
        return super().find_class(module, name)


def _domain_of(revision: str, into: Path) -> Callable[[DutchInput], DutchPairing]:
    """``pair_dutch`` of ``revision``'s ``app/domain``, importable beside this tree's."""
    archive = subprocess.run(
        ["git", "archive", revision, "app/__init__.py", "app/domain"],
        cwd=_ROOT,
        check=True,
        capture_output=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    package = into / _THEN
    (into / "app").rename(package)
    for module in package.rglob("*.py"):
        text = module.read_text()
        module.write_text(re.sub(r"\bapp\.domain\b", f"{_THEN}.domain", text))
    sys.path.insert(0, str(into))
    pair: Callable[[DutchInput], DutchPairing]
    pair = importlib.import_module(f"{_THEN}.domain.pairing.dutch").pair_dutch
    return pair


def compare(path: Path, spec: str, repeat: int, revision: str) -> None:
    data = path.read_bytes()
    now: Recorded = pickle.loads(data)
    with tempfile.TemporaryDirectory() as folder:
        then_pair = _domain_of(revision, Path(folder))
        then: Recorded = _Then(io.BytesIO(data)).load()
        gc.collect()
        gc.freeze()
        versions = (("then", then_pair, then), ("now", pair_dutch, now))
        labels = {"then": revision, "now": "this tree"}
        times: dict[str, dict[int, float]] = {"then": {}, "now": {}}
        explained: dict[str, set[int]] = {"then": set(), "now": set()}
        for number in _numbers(spec, len(now)):
            for turn in range(repeat):
                for name, pair, rounds in versions if turn % 2 == 0 else versions[::-1]:
                    round_, recorded = rounds[number - 1]
                    cpu = time.process_time()
                    pairing = pair(round_)
                    took = time.process_time() - cpu
                    if (pairing.boards, pairing.bye) != (recorded.boards, recorded.bye):
                        sys.exit(f"round {number}: {labels[name]} pairs otherwise than the file")
                    if pairing.explanation != recorded.explanation:
                        explained[name].add(number)
                    times[name][number] = min(took, times[name].get(number, took))
    load = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    for name, label in labels.items():
        taken = times[name]
        worst = max(taken, key=taken.__getitem__)
        over = sum(1 for took in taken.values() if took > 0.5)
        print(
            f"{label}: {len(taken)} rounds, worst {taken[worst]:.3f} s CPU (round {worst}), "
            f"mean {sum(taken.values()) / len(taken):.3f} s, {over} over 0.5 s; explanation "
            f"other than the file's in {len(explained[name])} rounds"
        )
    print(f"best of {repeat}, taking turns; load {load}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    recording = commands.add_parser("record")
    recording.add_argument("file", type=Path)
    recording.add_argument("--size", type=int, default=256)
    recording.add_argument("--seed", type=int, default=1)
    replaying = commands.add_parser("replay")
    replaying.add_argument("file", type=Path)
    replaying.add_argument("rounds", help="all, or e.g. 150-230,250")
    replaying.add_argument("--repeat", type=int, default=1)
    replaying.add_argument("--profile", action="store_true")
    comparing = commands.add_parser("compare")
    comparing.add_argument("file", type=Path)
    comparing.add_argument("rounds", help="all, or e.g. 150-230,250")
    comparing.add_argument("--against", required=True, help="the other commit")
    comparing.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    if args.command == "record":
        record(args.file, args.size, args.seed)
    elif args.command == "compare":
        compare(args.file, args.rounds, args.repeat, args.against)
    else:
        replay(args.file, args.rounds, args.repeat, args.profile)


if __name__ == "__main__":
    main()
