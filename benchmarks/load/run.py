"""The load benchmark's measurements against one served site (one worker in
memory, or several on Redis): crowds of real socket.io visitors, wrk per
page kind, memory per visitor, visitors coming and going."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import aiohttp
import httpx
import redis

from benchmarks.load import cpu, http, processes, scenario
from benchmarks.load.scenario import Catalogue, Tally

ACTIVE = 100
THINK_S = 1.0  # an active visitor's pause between actions (0.5-1.5 s)
SATURATING = 120  # visitors sending their next event as soon as the last is answered (within the rate limit)
HTTP_CONNECTIONS = 100


@dataclass(frozen=True)
class Sizes:
    levels: tuple[int, ...]
    browse_s: float
    http_s: int
    churn: int
    # How long a state outlives its closed tab (an open tab's state never
    # expires: platform/state_lifetime.py, so the idle crowd's states are all
    # counted); short, so that the warm-up's and the come-and-go visitors'
    # states are gone within the run.
    ttl_s: int


SHORT = Sizes(levels=(100, 500, 1000), browse_s=12, http_s=5, churn=2000, ttl_s=20)
FULL = Sizes(levels=(100, 500, 1000), browse_s=30, http_s=15, churn=10_000, ttl_s=30)


def percentiles(values: list[float]) -> dict:
    ordered = sorted(values)
    if not ordered:
        return {"p50_ms": None, "p95_ms": None, "p99_ms": None, "count": 0}

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {"p50_ms": at(0.50), "p95_ms": at(0.95), "p99_ms": at(0.99), "count": len(ordered)}


def tally_figures(tally: Tally, seconds: float) -> dict:
    per_s = tally.events_per_s if tally.events_per_s is not None else tally.events / seconds
    return {**percentiles(tally.all()), "events_per_s": round(per_s, 1),
            "errors": sum(tally.errors.values()), "error_kinds": dict(tally.errors),
            "by_kind": {kind: percentiles(values) for kind, values in sorted(tally.round_trips.items())}}


def worker_rss(server_pid: int) -> int:
    return sum(processes.rss_bytes(pid) for pid in processes.python_workers(server_pid))


def redis_bytes(redis_url: str | None) -> int:
    if redis_url is None:
        return 0
    return int(redis.Redis.from_url(redis_url).info("memory")["used_memory"])


async def crowd_levels(url: str, server_pid: int, sizes: Sizes, *, sign_in_tokens: list,
                       redis_url: str | None = None, cpu_parts: dict | None = None) -> dict:
    """For each level: that many visitors connected (hydrated, a title page
    open), 100 of them active; RSS per visitor; wrk per page kind meanwhile
    at the largest level; then a saturation run for event throughput."""
    catalogue = Catalogue.of(url)
    # Warm up (imports, caches, the first queries), then let those states expire.
    warm = Tally()
    await scenario.come_and_go(url, catalogue, 200, at_once=50, first=50_000, tally=warm)
    await asyncio.sleep(sizes.ttl_s + 10)
    baseline = worker_rss(server_pid)
    visitors: list = []
    levels = {}
    for level in sizes.levels:
        arrived = Tally()
        before, newcomers, redis_before = worker_rss(server_pid), level - len(visitors), redis_bytes(redis_url)
        visitors += await scenario.connect_crowd(url, catalogue, newcomers, first=len(visitors), tally=arrived)
        await asyncio.sleep(2)
        rss, in_redis = worker_rss(server_pid), redis_bytes(redis_url) - redis_before
        if level == sizes.levels[0]:
            await scenario.sign_in(visitors[: len(sign_in_tokens)], sign_in_tokens, arrived)
        tally = Tally()
        seconds = await scenario.browse(visitors[:ACTIVE], catalogue, seconds=sizes.browse_s, think_s=THINK_S,
                                        tally=tally)
        print(f"   {level} connected: event p95 {percentiles(tally.all())['p95_ms']} ms, "
              f"{sum(tally.errors.values())} errors, RSS {rss / 1e6:.0f} MB", flush=True)
        levels[level] = {"connected": level, "active": min(ACTIVE, level), **tally_figures(tally, seconds),
                         "arrival": tally_figures(arrived, 1.0) | {"events_per_s": None},
                         "rss_mb": round(rss / 1e6, 1),
                         # what the newcomers added: connected, hydrated, a title page open
                         "rss_per_visitor_kb": round((rss - before) / newcomers / 1000, 1),
                         # with Redis: each newcomer's state as Redis holds it
                         "redis_per_visitor_kb": round(in_redis / newcomers / 1000, 1) if redis_url else None}
    pages = await asyncio.to_thread(page_kinds, url, catalogue, sizes.http_s)
    saturation = Tally()
    meter = cpu.Meter(cpu_parts or {})
    meter.start()
    seconds = await scenario.browse(visitors[:SATURATING], catalogue, seconds=sizes.browse_s, think_s=0,
                                    tally=saturation)
    spent = meter.stop()
    await scenario.leave(visitors)
    print(f"   saturated: {saturation.events_per_s:.0f} events/s", flush=True)
    return {"baseline_rss_mb": round(baseline / 1e6, 1), "levels": levels, "http": pages,
            "saturation": {"visitors": SATURATING, **tally_figures(saturation, seconds),
                           # what each part spent per event: the machine is shared, events/s is noisy
                           "cpu_ms_per_event": cpu.per_event(spent, saturation.events)}}


def page_kinds(url: str, catalogue: Catalogue, seconds: int) -> dict:
    slug = catalogue.slugs[0]
    item = httpx.get(f"{url}/mangas_1.json", timeout=30).json()["list"][0]
    kinds = {
        "home /": "/",
        "title page": f"/manga/{slug}",
        "search /search?q=": "/search?q=" + "%E3%81%BB%E3%81%97",
        "chapter (reader)": f"/{slug}-ch-1",
        "JSON /mangas_1.json": "/mangas_1.json",
        "media (cover)": item["cover"],
    }
    base = url.replace("//localhost:", "//127.0.0.1:")
    return {kind: http.measure(base + path, connections=HTTP_CONNECTIONS, seconds=seconds)
            for kind, path in kinds.items()}


async def come_and_go(url: str, server_pid: int, sizes: Sizes) -> dict:
    """Memory after `sizes.churn` visitors came and went (once their states
    expired) against the memory before them, every earlier visitor's state
    expired; and /ping while their states expire against /ping while
    nothing does (what an expiry sweep stalls shows as the difference)."""
    catalogue = Catalogue.of(url)
    await asyncio.sleep(sizes.ttl_s + 10)  # the crowd before has left: its states expire
    quiet = await _ping_while(url, 10)
    baseline = worker_rss(server_pid)
    tally = Tally()
    started = time.perf_counter()
    await scenario.come_and_go(url, catalogue, sizes.churn, at_once=100, first=100_000, tally=tally)
    took = time.perf_counter() - started
    peak = worker_rss(server_pid)
    print(f"   {sizes.churn} visitors came and went in {took:.0f} s", flush=True)
    pings = await _ping_while(url, sizes.ttl_s + 15)
    after = worker_rss(server_pid)
    return {"visitors": sizes.churn, "seconds": round(took, 1), "errors": sum(tally.errors.values()),
            "error_kinds": dict(tally.errors),
            "baseline_rss_mb": round(baseline / 1e6, 1), "peak_rss_mb": round(peak / 1e6, 1),
            "after_expiry_rss_mb": round(after / 1e6, 1), "after_vs_baseline": round(after / baseline, 3),
            "ping_max_ms_during_expiry": round(max(pings), 1), "ping_max_ms_quiet": round(max(quiet), 1),
            "ping_p99_ms_during_expiry": percentiles([p / 1000 for p in pings])["p99_ms"],
            "ping_p99_ms_quiet": percentiles([p / 1000 for p in quiet])["p99_ms"]}


async def _ping_while(url: str, seconds: float) -> list[float]:
    found = []
    deadline = time.perf_counter() + seconds
    async with aiohttp.ClientSession() as session:
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            async with session.get(f"{url.replace('//localhost:', '//127.0.0.1:')}/ping") as response:
                await response.read()
            found.append((time.perf_counter() - started) * 1000)
            await asyncio.sleep(0.02)
    return found
