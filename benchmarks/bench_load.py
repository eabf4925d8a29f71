"""Visitors at once: real socket.io visitors and wrk against 1 worker, then 3 workers on Redis + PostgreSQL (issue 19).

Served like `make run`. One worker (state in memory, as without Redis):
100, 500 and 1,000 visitors connected (hydrated, a title page open), 100 of
them browsing (home, title pages, chapters with page turns, search as they
type; 10 signed in, so their progress is written to their account): event
round trips, errors, RSS per visitor; wrk per page kind at 100 connections
with the 1,000 connected; event throughput with 60 visitors sending as fast
as they are answered; then visitors coming and going (memory back to its
baseline after their states expire, and the longest /ping meanwhile). Then
the same crowd and saturation against 3 workers sharing state in Redis with
the catalogue and accounts in PostgreSQL (tests/e2e/test_scale_out.py's
setup), and the ratio of event throughputs.

`make bench` runs the short version; LOAD_SIZE=full runs 30 s per level and
10,000 visitors coming and going. The load generator shares the machine's
cores with the site, so it runs on uvloop as the site does (its CPU per
event 0.19-0.22 ms against 0.23-0.29 ms on asyncio's loop in saturation runs:
less taken from 3 workers, which need both cores).
"""

from __future__ import annotations

import os
from pathlib import Path

import redis
import sqlalchemy as sa
import uvloop

from benchmarks._site import served_site
from benchmarks.load import cpu, processes, run as load

PORT = int(os.environ.get("BENCH_LOAD_PORT", "3297"))
WEB_DIR = ".web-bench-load"
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/6")
WORKERS = 3
SIGNED_IN = 10
TARGETS = {"event_p95_ms": 100.0, "title_rps": 800.0, "search_rps": 400.0, "http_p99_ms": 250.0,
           "per_visitor_kb": 50.0, "memory_ratio": 1.10, "expiry_pause_ms": 50.0, "scaling": 1.6}


def run(results_dir: Path) -> dict:
    from tests.unit.accounts.emulator_accounts import claims_of, google_token

    sizes = load.FULL if os.environ.get("LOAD_SIZE") == "full" else load.SHORT
    ttl = {"REFLEX_REDIS_TOKEN_EXPIRATION": str(sizes.ttl_s)}
    with served_site(PORT, WEB_DIR, **ttl) as (url, data):
        pid = processes.server_of(str(data))
        tokens = [(token, claims_of(token)) for token in (google_token() for _ in range(SIGNED_IN))]
        parts = {"workers": lambda: processes.python_workers(pid), "load generator": lambda: [os.getpid()]}
        one = uvloop.run(load.crowd_levels(url, pid, sizes, sign_in_tokens=tokens, cpu_parts=parts))
        one["come_and_go"] = uvloop.run(load.come_and_go(url, pid, sizes))
    three = _three_workers(sizes, ttl)
    return {"figures": _figures(one, three), "sizes": sizes.__dict__, "one_worker": one,
            "three_workers_redis_postgresql": three}


def _three_workers(sizes: load.Sizes, ttl: dict) -> dict:
    from benchmarks.load.saturate import postgres_backends
    from tests.postgres import ADMIN_URL, scratch_database

    redis.Redis.from_url(REDIS_URL).flushdb()
    with scratch_database("bench_load") as admin_url:
        db_url = sa.engine.make_url(admin_url).set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
        with served_site(PORT, WEB_DIR, db_url=db_url, REFLEX_REDIS_URL=REDIS_URL, WEB_CONCURRENCY=str(WORKERS),
                         **ttl) as (url, data):
            pid = processes.server_of(str(data))
            biggest = load.Sizes(levels=(sizes.levels[-1],), browse_s=sizes.browse_s, http_s=sizes.http_s,
                                 churn=0, ttl_s=sizes.ttl_s)
            # redis-server is the shared one: its CPU includes whatever else uses it meanwhile.
            redis_pid = redis.Redis.from_url(REDIS_URL).info("server")["process_id"]
            database = sa.engine.make_url(admin_url).database
            parts = {"workers": lambda: [p for p in processes.python_workers(pid) if p != pid],
                     "load generator": lambda: [os.getpid()], "redis-server": lambda: [redis_pid],
                     "postgresql": lambda: postgres_backends(ADMIN_URL, database)}
            return uvloop.run(load.crowd_levels(url, pid, biggest, sign_in_tokens=[], redis_url=REDIS_URL,
                                                 cpu_parts=parts))


def _figures(one: dict, three: dict) -> list[dict]:
    figures = []
    for level, found in one["levels"].items():
        figures += [
            {"figure": f"1 worker, {level} connected / {found['active']} active: event p50", "value": found["p50_ms"], "unit": "ms"},
            {"figure": f"1 worker, {level} connected / {found['active']} active: event p95", "value": found["p95_ms"], "unit": "ms",
             "target": f"<= {TARGETS['event_p95_ms']:.0f} ms" if level == 1000 else None,
             "pass": found["p95_ms"] is not None and found["p95_ms"] <= TARGETS["event_p95_ms"] if level == 1000 else None},
            {"figure": f"1 worker, {level} connected: event p99", "value": found["p99_ms"], "unit": "ms"},
            {"figure": f"1 worker, {level} connected: errors", "value": found["errors"] + found["arrival"]["errors"],
             "target": "0", "pass": found["errors"] + found["arrival"]["errors"] == 0},
            {"figure": f"1 worker, {level} connected: RSS per visitor", "value": found["rss_per_visitor_kb"], "unit": "KB",
             "target": f"<= {TARGETS['per_visitor_kb']:.0f} KB", "pass": found["rss_per_visitor_kb"] <= TARGETS["per_visitor_kb"]},
        ]
    for kind, found in one["http"].items():
        target = {"title page": TARGETS["title_rps"], "search /search?q=": TARGETS["search_rps"]}.get(kind)
        figures += [
            {"figure": f"{kind}: req/s at 100 connections", "value": found["req_per_s"], "unit": "req/s",
             "target": f">= {target:.0f}" if target else None, "pass": found["req_per_s"] >= target if target else None},
            {"figure": f"{kind}: p99", "value": found["p99_ms"], "unit": "ms",
             "target": f"<= {TARGETS['http_p99_ms']:.0f} ms" if target else None,
             "pass": found["p99_ms"] <= TARGETS["http_p99_ms"] if target else None},
        ]
    churn = one["come_and_go"]
    ratio = three["saturation"]["events_per_s"] / max(one["saturation"]["events_per_s"], 0.001)
    biggest = next(iter(three["levels"].values()))
    figures += [
        {"figure": f"memory after {churn['visitors']:,} came and went, vs baseline", "value": churn["after_vs_baseline"],
         "unit": "x", "target": f"<= {TARGETS['memory_ratio']}", "pass": churn["after_vs_baseline"] <= TARGETS["memory_ratio"]},
        {"figure": "come and go: errors", "value": churn["errors"], "target": "0", "pass": churn["errors"] == 0},
        # A stall caused by expiry is the longest /ping while states expire beyond the longest without.
        {"figure": "longest /ping while their states expire, beyond the longest without",
         "value": round(churn["ping_max_ms_during_expiry"] - churn["ping_max_ms_quiet"], 1), "unit": "ms",
         "target": f"<= {TARGETS['expiry_pause_ms']:.0f} ms",
         "pass": churn["ping_max_ms_during_expiry"] - churn["ping_max_ms_quiet"] <= TARGETS["expiry_pause_ms"]},
        {"figure": "longest /ping while their states expire", "value": churn["ping_max_ms_during_expiry"], "unit": "ms"},
        {"figure": "longest /ping while nothing expires", "value": churn["ping_max_ms_quiet"], "unit": "ms"},
        {"figure": "1 worker: events/s, saturated", "value": one["saturation"]["events_per_s"], "unit": "events/s"},
        {"figure": f"{WORKERS} workers on Redis + PostgreSQL: events/s, saturated",
         "value": three["saturation"]["events_per_s"], "unit": "events/s"},
        {"figure": f"{WORKERS} workers vs 1: event throughput", "value": round(ratio, 2), "unit": "x",
         "target": f">= {TARGETS['scaling']}", "pass": ratio >= TARGETS["scaling"]},
        *({"figure": f"{label}, saturated: events never answered", "value": found["saturation"]["errors"],
           "target": "0", "pass": found["saturation"]["errors"] == 0}
          for label, found in (("1 worker", one), (f"{WORKERS} workers", three))),
        *_cpu_figures(one["saturation"]["cpu_ms_per_event"], three["saturation"]["cpu_ms_per_event"]),
        {"figure": f"{WORKERS} workers, {biggest['connected']} connected / {biggest['active']} active: event p95",
         "value": biggest["p95_ms"], "unit": "ms"},
        {"figure": f"{WORKERS} workers: state in Redis per visitor", "value": biggest["redis_per_visitor_kb"], "unit": "KB",
         "target": f"<= {TARGETS['per_visitor_kb']:.0f} KB", "pass": biggest["redis_per_visitor_kb"] <= TARGETS["per_visitor_kb"]},
        {"figure": f"{WORKERS} workers: RSS per visitor (all workers)", "value": biggest["rss_per_visitor_kb"], "unit": "KB"},
        {"figure": f"{WORKERS} workers, {biggest['connected']} connected: errors",
         "value": biggest["errors"] + biggest["arrival"]["errors"], "target": "0",
         "pass": biggest["errors"] + biggest["arrival"]["errors"] == 0},
    ]
    return figures


def _cpu_figures(one: dict, three: dict) -> list[dict]:
    """CPU per saturated event of each part (/proc utime+stime), and the
    ratio they give on two otherwise idle cores: one worker uses one core at
    most, the load generator and redis-server one each; the measured
    events/s depends on what else the machine runs meanwhile."""
    figures = [{"figure": f"{label}: {part} CPU per saturated event", "value": ms, "unit": "ms"}
               for label, found in (("1 worker", one), (f"{WORKERS} workers", three))
               for part, ms in found.items()]
    alone = cpu.projected_events_per_s(one, {"workers": 1, "load generator": 1})
    together = cpu.projected_events_per_s(three, {"workers": WORKERS, "load generator": 1, "redis-server": 1,
                                                  "postgresql": WORKERS})
    return figures + [{"figure": f"{WORKERS} workers vs 1: from CPU per event, on 2 idle cores",
                       "value": round(together / max(alone, 0.001), 2), "unit": "x"}]
