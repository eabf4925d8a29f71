"""Memory per connected visitor, and where it goes (issue 19).

The site served as bench_load serves it (one worker, state in memory; an
open tab's state never expires, and a long TTL keeps the warm-up's too,
so no freed state's memory is reused); N visitors
of benchmarks/load (connected, hydrated, a title page open) arrive, `steps`
times; each time, the worker's RSS delta per newcomer. With --trace, the
worker runs tracemalloc from just before the visitors arrive and the probe
prints what they left allocated, per visitor, by source line (or file):
what to cut next.

    .venv/bin/python -m benchmarks.memory_probe [--port 3298] [-n 400] [--steps 2] [--trace] [--by filename]

RSS under tracemalloc is inflated: take the RSS figure from a run without it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import tempfile
import time
import tracemalloc
from pathlib import Path

from benchmarks._site import served_site
from benchmarks.load import processes, scenario
from benchmarks.load.scenario import Catalogue, Tally

HOOK = Path(__file__).resolve().parent / "load/tracing"


def _snapshot(pids: list[int], folder: Path, count: int) -> list[Path]:
    for pid in pids:
        os.kill(pid, signal.SIGUSR1)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        done = [folder / f"{pid}-{count}.snapshot" for pid in pids if (folder / f"{pid}-{count}.done").exists()]
        if len(done) == len(pids):
            return done
        time.sleep(0.5)
    raise RuntimeError("the worker wrote no snapshot")


def report(snapshots: list[Path], visitors: int, by: str, top: int) -> None:
    ignore = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen importlib._bootstrap>")]
    for path in snapshots:
        stats = tracemalloc.Snapshot.load(str(path)).filter_traces(ignore).statistics(by)
        print(f"   traced, still allocated: {sum(stat.size for stat in stats) / visitors / 1000:.1f} KB per visitor")
        for stat in stats[:top]:
            where = str(stat.traceback[0]).replace(str(Path(os.__file__).parent) + "/", "")
            where = where.split("site-packages/")[-1]
            print(f"   {stat.size / visitors:7.0f} B {stat.count / visitors:5.1f} objects  {where}")


async def probe(port: int, visitors: int, steps: int, trace: bool, by: str, top: int) -> None:
    with tempfile.TemporaryDirectory(prefix="memory-probe-") as folder:
        settings = {"REFLEX_REDIS_TOKEN_EXPIRATION": "3600"}
        if trace:
            settings |= {"PYTHONPATH": str(HOOK), "MEMORY_PROBE_TRACE": folder}
        with served_site(port, f".web-memory-probe-{port}", **settings) as (url, _data):
            pids = processes.python_workers(processes.server_of(str(_data)))
            catalogue = Catalogue.of(url)
            await scenario.come_and_go(url, catalogue, 200, at_once=50, first=50_000, tally=Tally())  # warm up
            if trace:
                for pid in pids:
                    os.kill(pid, signal.SIGUSR1)  # start tracing
                await asyncio.sleep(1)
            crowd: list = []
            for step in range(steps):
                before, tally = sum(map(processes.rss_bytes, pids)), Tally()
                crowd += await scenario.connect_crowd(url, catalogue, visitors, first=len(crowd), tally=tally)
                await asyncio.sleep(2)
                after = sum(map(processes.rss_bytes, pids))
                print(f"{len(crowd)} connected: RSS {before / 1e6:.1f} -> {after / 1e6:.1f} MB, "
                      f"{(after - before) / visitors / 1000:.1f} KB per newcomer, errors {dict(tally.errors)}", flush=True)
                if trace:
                    report(_snapshot(pids, Path(folder), step + 1), len(crowd), by, top)
            await scenario.leave(crowd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("BENCH_LOAD_PORT", "3298")))
    parser.add_argument("-n", type=int, default=400, help="visitors arriving per step")
    parser.add_argument("--steps", type=int, default=2)
    parser.add_argument("--trace", action="store_true")
    parser.add_argument("--by", choices=("lineno", "filename", "traceback"), default="lineno")
    parser.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    asyncio.run(probe(args.port, args.n, args.steps, args.trace, args.by, args.top))


if __name__ == "__main__":
    main()
