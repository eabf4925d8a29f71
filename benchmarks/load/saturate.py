"""Where a saturated event goes: bench_load's saturation run alone (60
visitors sending as fast as they are answered) against 1 worker in memory
or 3 workers on Redis + PostgreSQL, with the CPU each part spends per event
(the workers, redis-server, the PostgreSQL backends of the site's database,
this load generator) and Redis commands per event.

    python -m benchmarks.load.saturate --workers 3 [--seconds 20] [--profile DIR]

BENCH_LOAD_PORT is the port (default 3297); with --workers 3 a private
redis-server runs on --redis-port (default 6390) for the run, so its CPU and command counts are
the site's alone. --profile samples each worker with py-spy (PY_SPY, a
separate install) for the same length after the measured run."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import redis
import sqlalchemy as sa
import uvloop

from benchmarks._site import served_site
from benchmarks.load import cpu, processes, scenario
from benchmarks.load.run import SATURATING, percentiles

PORT = int(os.environ.get("BENCH_LOAD_PORT", "3297"))
WEB_DIR = ".web-bench-load"
PY_SPY = os.environ.get("PY_SPY", "/tmp/spy/bin/py-spy")


@contextlib.contextmanager
def private_redis(port: int) -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="bench-redis-") as folder:
        server = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                   "--appendonly", "no", "--dir", folder], stdout=subprocess.DEVNULL)
        try:
            client = redis.Redis(port=port)
            for _ in range(50):
                with contextlib.suppress(redis.ConnectionError):
                    client.ping()
                    break
                time.sleep(0.1)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            server.terminate()
            server.wait(10)


def commands(redis_url: str | None) -> dict[str, int]:
    """Calls per Redis command, and keys that expired (a lock left to expire
    kept its visitor's events waiting until then)."""
    if redis_url is None:
        return {}
    client = redis.Redis.from_url(redis_url)
    stats = client.info("commandstats")
    return {name.removeprefix("cmdstat_"): int(found["calls"]) for name, found in stats.items()} | {
        "(expired keys)": int(client.info("stats")["expired_keys"])}


def postgres_backends(admin_url: str, database: str) -> list[int]:
    with psycopg.connect(admin_url, autocommit=True) as connection:
        rows = connection.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s", (database,)).fetchall()
    return [pid for (pid,) in rows]


async def measure(url: str, parts: dict, seconds: float, redis_url: str | None, profile: Path | None,
                  workers: list[int]) -> dict:
    catalogue = scenario.Catalogue.of(url)
    visitors = await scenario.connect_crowd(url, catalogue, SATURATING)
    await scenario.browse(visitors, catalogue, seconds=5, think_s=0, tally=scenario.Tally())  # warm up
    meter = cpu.Meter(parts)
    meter.start()
    await asyncio.sleep(5)  # what the parts spend with every tab connected and none active
    idle = {name: round(spent / 5, 3) for name, spent in meter.stop().items()}
    tally = scenario.Tally()
    before = commands(redis_url)
    meter.start()
    took = await scenario.browse(visitors, catalogue, seconds=seconds, think_s=0, tally=tally)
    spent = meter.stop()
    after = commands(redis_url)
    samples = []
    if profile:
        profile.mkdir(parents=True, exist_ok=True)
        samples = [subprocess.Popen([PY_SPY, "record", "--pid", str(pid), "--duration", str(int(seconds)),
                                     "--rate", "200", "--format", "raw", "--nonblocking",
                                     "--output", str(profile / f"worker-{pid}.txt")],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for pid in workers]
        await scenario.browse(visitors, catalogue, seconds=seconds + 2, think_s=0, tally=scenario.Tally())
        for sampler in samples:
            sampler.wait()
    await scenario.leave(visitors)
    used = {name: after[name] - before.get(name, 0) for name in after if after[name] > before.get(name, 0)}
    per = cpu.per_event(spent, tally.events)
    kinds = {kind: percentiles(values) for kind, values in tally.round_trips.items()}
    return {"events": tally.events, "seconds": round(took, 1), "events_per_s": round(tally.events_per_s, 1),
            "errors": dict(tally.errors), "cpu_s": spent, "cpu_ms_per_event": per,
            "busy_cores": round(sum(spent.values()) / took, 2), "idle_cpu_s_per_s": idle,
            "redis_commands_per_event": {name: round(count / max(tally.events, 1), 2)
                                         for name, count in sorted(used.items(), key=lambda kv: -kv[1])},
            "by_kind": kinds}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, choices=(1, 3), default=1)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--profile", type=Path)
    parser.add_argument("--redis-port", type=int, default=6390)
    args = parser.parse_args()
    me = os.getpid()
    with contextlib.ExitStack() as stack:
        settings, redis_url, admin, database = {}, None, None, None
        if args.workers > 1:
            from tests.postgres import ADMIN_URL, scratch_database

            redis_url = stack.enter_context(private_redis(args.redis_port))
            admin = stack.enter_context(scratch_database("bench_saturate"))
            database = sa.engine.make_url(admin).database
            settings = {"db_url": sa.engine.make_url(admin).set(drivername="postgresql+psycopg")
                        .render_as_string(hide_password=False),
                        "REFLEX_REDIS_URL": redis_url, "WEB_CONCURRENCY": str(args.workers)}
        url, data = stack.enter_context(served_site(PORT, WEB_DIR, **settings))
        server = processes.server_of(str(data))
        workers = [pid for pid in processes.python_workers(server) if pid != server or args.workers == 1]
        parts = {"workers": lambda: workers, "load generator": lambda: [me]}
        counts = {"workers": len(workers), "load generator": 1}
        if redis_url:
            redis_pid = redis.Redis.from_url(redis_url).info("server")["process_id"]
            parts |= {"redis-server": lambda: [redis_pid],
                      "postgresql": lambda: postgres_backends(ADMIN_URL, database)}
            counts |= {"redis-server": 1, "postgresql": 3}
        found = uvloop.run(measure(url, parts, args.seconds, redis_url, args.profile, workers))
    found["projected_events_per_s_2_idle_cores"] = cpu.projected_events_per_s(found["cpu_ms_per_event"], counts)
    found["workers"] = args.workers
    with open("/proc/loadavg") as load:
        found["loadavg"] = load.read().split()[:3]
    print(json.dumps(found, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main()
