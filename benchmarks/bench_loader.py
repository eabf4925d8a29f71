"""The backend's catalogue loader on 100,000 series over loopback through the site's own HTTP layer, and the held catalogue's resident memory.

The synthetic catalogue (synthetic.py) is published by the real publisher
and served by granian in a subprocess running the site's HTTP layer
(benchmarks._catalogue_server: manga_app.web.middleware.SiteHttpLayer with
its gzip layer and the published-file routes). CatalogueLoader.load_mangas
fetches and parses every page one after another, as the spec says, in a
fresh Python process like a backend's, once asking for identity and once
for gzip (Accept-Encoding); the best of ROUNDS each is reported, and the
encoding the loader uses (loader.ACCEPT_ENCODING) must load in under 2 s.

Memory: resident memory (RSS) of a fresh process, after gc and malloc_trim,
before and after loading the list and building the held Snapshot
(manga_app.read_models.held), per 10,000 series; then the growth from
building the search index on it, reported apart. Median of MEMORY_RUNS
processes. Target: held catalogue under 5 MB per 10,000 (50 MB per 100,000).
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from benchmarks import synthetic

RUN_AFTER = ("publish",)  # reuses its 100,000-series output when both run
ROUNDS = 3
MEMORY_RUNS = 3
ENCODINGS = ("identity", "gzip")
TARGET_SECONDS = 2.0
TARGET_MB_PER_10K = 5.0
PROJECT_ROOT = Path(__file__).resolve().parents[1]


def run(results_dir: Path) -> dict:
    from manga_app.read_models.loader import ACCEPT_ENCODING
    from manga_app.catalogue.publisher import PAGE_SIZE

    count = synthetic.SERIES
    published = synthetic.published(count)
    list_bytes = sum(p.stat().st_size for p in published.glob("mangas_*.json"))
    gz_bytes = sum(p.stat().st_size for p in published.glob("mangas_*.json.gz"))
    with tempfile.TemporaryDirectory(prefix="bench-loader-") as data_dir:
        os.symlink(published, Path(data_dir) / "published")
        with _server(data_dir) as base_url:
            timings = {}
            for encoding in ENCODINGS:
                timings[encoding] = _in_fresh_process("time", base_url, count, ROUNDS, encoding)
                print(f"   {encoding}: {', '.join(f'{t:.2f} s' for t in timings[encoding])}", flush=True)
            memory = [_in_fresh_process("memory", base_url, count, 1, ACCEPT_ENCODING) for _ in range(MEMORY_RUNS)]
    per_10k = count / 10_000
    held_mb = statistics.median(m["held_rss"] for m in memory) / per_10k / 1e6
    index_mb = statistics.median(m["index_rss"] for m in memory) / per_10k / 1e6
    best = {encoding: min(values) for encoding, values in timings.items()}
    other = next(e for e in ENCODINGS if e != ACCEPT_ENCODING)
    return {
        "figures": [
            {"figure": f"load {count:,} series ({ACCEPT_ENCODING}, the loader's choice)",
             "value": round(best[ACCEPT_ENCODING], 2), "unit": "s",
             "target": f"< {TARGET_SECONDS} s", "pass": best[ACCEPT_ENCODING] < TARGET_SECONDS},
            {"figure": f"load {count:,} series ({other})", "value": round(best[other], 2), "unit": "s",
             "target": None, "pass": None},
            {"figure": "held catalogue RSS per 10k series", "value": round(held_mb, 2), "unit": "MB",
             "target": f"< {TARGET_MB_PER_10K} MB", "pass": held_mb < TARGET_MB_PER_10K},
            {"figure": "search index RSS per 10k series", "value": round(index_mb, 2), "unit": "MB",
             "target": None, "pass": None},
            {"figure": "search index build (100k series)",
             "value": round(statistics.median(m["index_build_s"] for m in memory), 2), "unit": "s",
             "target": None, "pass": None},
        ],
        "page_size": PAGE_SIZE,
        "list_pages": len(list(published.glob("mangas_*.json"))),
        "list_bytes": list_bytes,
        "list_gzip_bytes": gz_bytes,
        "load_s": {k: [round(t, 3) for t in v] for k, v in timings.items()},
        "memory_runs": memory,
        "server": "granian (asgi, 1 worker) running manga_app.web.middleware.SiteHttpLayer "
                  "(see benchmarks/_catalogue_server.py)",
    }


def _in_fresh_process(what: str, base_url: str, count: int, rounds: int, encoding: str):
    command = [sys.executable, "-m", "benchmarks.bench_loader", what, base_url, str(count), str(rounds), encoding]
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
    def __init__(self, data_dir: str) -> None:
        self.data_dir = data_dir

    def __enter__(self) -> str:
        port = _free_port()
        env = {**os.environ, "DATA_DIR": self.data_dir, "PYTHONPATH": str(PROJECT_ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "granian", "--interface", "asginl", "--host", "127.0.0.1",
             "--port", str(port), "--no-ws", "--log-level", "warning", "benchmarks._catalogue_server:app"],
            cwd=PROJECT_ROOT, env=env,
        )
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/genres.json", timeout=1).is_success:
                    return base
            except httpx.HTTPError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.__exit__()
                raise RuntimeError("the catalogue server did not start")
            time.sleep(0.2)

    def __exit__(self, *exc_info) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def _timed_load(base_url: str, count: int, encoding: str) -> float:
    from manga_app.read_models.loader import CatalogueLoader

    loader = CatalogueLoader(base_url, accept_encoding=encoding)
    gc.collect()
    started = time.perf_counter()
    ok = asyncio.run(loader.load_mangas())
    elapsed = time.perf_counter() - started
    if not ok or len(loader.mangas) != count:
        raise RuntimeError(f"loader got {len(loader.mangas)} of {count} series (ok={ok})")
    return elapsed


def _rss() -> int:
    """Resident bytes after a full collection with freed heap given back to the system."""
    gc.collect()
    ctypes.CDLL("libc.so.6").malloc_trim(0)
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _held_memory(base_url: str, count: int, encoding: str) -> dict:
    """RSS growth from loading the list into a Snapshot, then from indexing it."""
    from manga_app.read_models.held import Snapshot
    from manga_app.read_models.loader import CatalogueLoader
    from manga_app.search.index import SearchIndex

    asyncio.run(CatalogueLoader(base_url, accept_encoding=encoding).load_genres())  # imports what loading needs
    SearchIndex([])
    before = _rss()
    loader = CatalogueLoader(base_url, accept_encoding=encoding)
    asyncio.run(loader.load_genres())
    asyncio.run(loader.load_mangas())
    snapshot = Snapshot.build(loader.mangas, loader.genres, "bench")
    del loader  # the snapshot holds the catalogue now, as HeldCatalogue does
    held = _rss()
    started = time.perf_counter()
    index = SearchIndex(snapshot.mangas)
    build_s = time.perf_counter() - started
    indexed = _rss()
    if len(snapshot.mangas) != count or len(index) != count:
        raise RuntimeError("snapshot incomplete")
    return {"held_rss": held - before, "index_rss": indexed - held, "index_build_s": build_s,
            "column_bytes": snapshot.mangas.nbytes()}


if __name__ == "__main__":  # one measurement in a fresh process: WHAT BASE_URL COUNT ROUNDS ENCODING
    _what, _base, _count, _rounds, _encoding = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    if _what == "time":
        print(json.dumps([_timed_load(_base, _count, _encoding) for _ in range(_rounds)]))
    else:
        print(json.dumps(_held_memory(_base, _count, _encoding)))
