"""The backend's catalogue loader on 100,000 series over loopback, and the held catalogue's memory.

A real HTTP server (granian in a subprocess) serves the synthetic catalogue
as published (synthetic.py; the publisher's PAGE_SIZE series per list page)
through the site's own routes (manga_app.web.catalogue_files).
CatalogueLoader.load_mangas fetches and parses every page, in a fresh Python
process like a backend's (so what other benchmarks left in this process's
heap does not count); the best of ROUNDS is reported. Target: under 2 s. The same is measured through the GZip
middleware the site puts in front of those routes (level 9), for comparison.

Memory: tracemalloc of what stays allocated after loading the list and
building the held Snapshot (manga_app.catalogue.held), per 10,000 series.
Target: under 5 MB per 10,000 (50 MB per 100,000).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import httpx

from benchmarks import synthetic

RUN_AFTER = ("publish",)  # reuses its 100,000-series output when both run
ROUNDS = 3
GZIP_ROUNDS = 2
TARGET_SECONDS = 2.0
TARGET_MB_PER_10K = 5.0
PROJECT_ROOT = Path(__file__).resolve().parents[1]


def run(results_dir: Path) -> dict:
    from manga_app.catalogue.publisher import PAGE_SIZE

    count = synthetic.SERIES
    published = synthetic.published(count)
    list_bytes = sum(p.stat().st_size for p in published.glob("mangas_*.json"))
    with tempfile.TemporaryDirectory(prefix="bench-loader-") as data_dir:
        os.symlink(published, Path(data_dir) / "published")
        timings = {}
        for target in ("plain", "app"):
            with _server(data_dir, target) as base_url:
                rounds = ROUNDS if target == "plain" else GZIP_ROUNDS
                timings[target] = _in_fresh_process("time", base_url, count, rounds)
                print(f"   {target}: {', '.join(f'{t:.2f} s' for t in timings[target])}", flush=True)
                if target == "plain":
                    memory, rss = _in_fresh_process("memory", base_url, count)
    best = min(timings["plain"])
    per_10k = memory["held"] / (count / 10_000) / 1e6
    return {
        "figures": [
            {"figure": f"load {count:,} series", "value": round(best, 2), "unit": "s",
             "target": f"< {TARGET_SECONDS} s", "pass": best < TARGET_SECONDS},
            {"figure": "load through the site's gzip", "value": round(min(timings["app"]), 2),
             "unit": "s", "target": None, "pass": None},
            {"figure": "held catalogue memory per 10k series", "value": round(per_10k, 2),
             "unit": "MB", "target": f"< {TARGET_MB_PER_10K} MB",
             "pass": per_10k < TARGET_MB_PER_10K},
        ],
        "page_size": PAGE_SIZE,
        "list_pages": len(list(published.glob("mangas_*.json"))),
        "list_bytes": list_bytes,
        "load_s": {k: [round(t, 3) for t in v] for k, v in timings.items()},
        "memory": {**{f"{k}_bytes": v for k, v in memory.items()}, "rss_growth_bytes": rss,
                   "bytes_per_series": round(memory["held"] / count),
                   "item_bytes_per_series": round(memory["items"] / count)},
        "server": "granian (asgi, 1 worker): manga_app.web.catalogue_files routes; 'app' adds "
                  "starlette GZipMiddleware(minimum_size=1024) as manga_app.web.middleware does",
    }


def _in_fresh_process(what: str, base_url: str, count: int, rounds: int = 1):
    command = [sys.executable, "-m", "benchmarks.bench_loader", what, base_url, str(count), str(rounds)]
    done = subprocess.run(command, cwd=PROJECT_ROOT, capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)})
    if done.returncode != 0:
        raise RuntimeError(f"loader process failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class _server:
    def __init__(self, data_dir: str, target: str) -> None:
        self.data_dir, self.target = data_dir, target

    def __enter__(self) -> str:
        port = _free_port()
        env = {**os.environ, "DATA_DIR": self.data_dir, "PYTHONPATH": str(PROJECT_ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "granian", "--interface", "asgi", "--host", "127.0.0.1",
             "--port", str(port), "--no-ws", "--log-level", "warning",
             f"benchmarks._catalogue_server:{self.target}"],
            cwd=PROJECT_ROOT, env=env,
        )
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{base}/genres.json", timeout=1).is_success:
                    return base
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.__exit__()
                raise RuntimeError("the catalogue server did not start")
            time.sleep(0.1)

    def __exit__(self, *exc_info) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _timed_load(base_url: str, count: int) -> float:
    from manga_app.catalogue.loader import CatalogueLoader

    loader = CatalogueLoader(base_url)
    gc.collect()
    started = time.perf_counter()
    ok = asyncio.run(loader.load_mangas())
    elapsed = time.perf_counter() - started
    if not ok or len(loader.mangas) != count:
        raise RuntimeError(f"loader got {len(loader.mangas)} of {count} series (ok={ok})")
    return elapsed


def _rss() -> int:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _held_memory(base_url: str, count: int) -> tuple[dict, int]:
    """Bytes still allocated (tracemalloc) after loading the list, then after building the
    Snapshot; and the process's RSS growth."""
    from manga_app.catalogue.held import Snapshot
    from manga_app.catalogue.loader import CatalogueLoader

    asyncio.run(CatalogueLoader(base_url).load_genres())  # imports what loading needs, first
    gc.collect()
    rss_before = _rss()
    tracemalloc.start()
    baseline = tracemalloc.get_traced_memory()[0]
    loader = CatalogueLoader(base_url)
    asyncio.run(loader.load_genres())
    asyncio.run(loader.load_mangas())
    gc.collect()
    items = tracemalloc.get_traced_memory()[0] - baseline
    snapshot = Snapshot.build(loader.mangas, loader.genres, "bench")
    loader.mangas = []  # the snapshot holds the catalogue now, as HeldCatalogue does
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - baseline
    tracemalloc.stop()
    rss = _rss() - rss_before
    if len(snapshot.mangas) != count:
        raise RuntimeError("snapshot incomplete")
    del snapshot
    return {"held": held, "items": items, "snapshot_indexes": held - items}, rss


if __name__ == "__main__":  # one measurement in a fresh process: WHAT BASE_URL COUNT ROUNDS
    _what, _base, _count, _rounds = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    if _what == "time":
        print(json.dumps([_timed_load(_base, _count) for _ in range(_rounds)]))
    else:
        print(json.dumps(_held_memory(_base, _count)))
