"""Import throughput (pages/s) against the image floor measured in the same run (issue 3).

The floor is what the import cannot avoid: decoding every page and encoding
the same derivatives (same sizes, formats and Pillow settings, the same pages'
cover thumbnails), nothing else (no archive reading, hashing, files or
database), with the same number of worker processes started the same way.
Target: import time / floor time <= 1.3.

Input: the first SERIES series of the generated demo library (fixed seed and
date, so every run imports the same pages). Floor and import alternate
ROUNDS times and the best of each is compared, which evens out other load on
the machine. The CPU time of each (this process and its worker processes,
sampled from /proc) is reported too: on a busy machine wall times wander,
CPU seconds much less.
"""

from __future__ import annotations

import io
import os
import shutil
import tempfile
import time
import zipfile
from datetime import UTC, datetime
from pathlib import Path

from PIL import Image

SERIES = 12
ROUNDS = 3
TARGET_RATIO = 1.3
NOW = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


def run(results_dir: Path) -> dict:
    from manga_app.catalogue import importer
    from manga_app.catalogue.page_images import WEBP_METHOD, WEBP_QUALITY
    from manga_app.demo import generate_demo_library

    workers = _cpus()
    with tempfile.TemporaryDirectory(prefix="bench-import-") as temp:
        root = Path(temp)
        library = root / "library"
        started = time.perf_counter()
        archives = generate_demo_library(library, series_count=SERIES, now=NOW, workers=workers)
        generated = time.perf_counter() - started
        pages = _floor_inputs(archives)
        floors, imports, floor_cpu, import_cpu = [], [], [], []
        for attempt in range(ROUNDS):
            with _CpuMeter() as meter:
                floors.append(_floor(pages, workers))
            floor_cpu.append(meter.seconds)
            with _CpuMeter() as meter:
                imports.append(_import(root / f"run{attempt}", library, workers))
            import_cpu.append(meter.seconds)
            print(f"   round {attempt + 1}: floor {floors[-1]:.2f} s ({floor_cpu[-1]:.1f} s CPU), "
                  f"import {imports[-1]:.2f} s ({import_cpu[-1]:.1f} s CPU)", flush=True)
        from benchmarks.import_formats import BEFORE_PAGES_PER_S, compare_encoders, run_formats

        encoders = compare_encoders(root)
        formats = run_formats(root, workers, _CpuMeter)
    count = len(pages)
    floor, imported = min(floors), min(imports)
    per_format = [
        {"figure": f"{row['format']} import, 1200x1800 JPEG pages (JPEG and WebP copies)", "value": row["pages_per_s"],
         "unit": "pages/s", "target": f">= {2 * BEFORE_PAGES_PER_S}" if row["format"] == "CBZ" else None,
         "pass": row["pages_per_s"] >= 2 * BEFORE_PAGES_PER_S if row["format"] == "CBZ" else None}
        for row in formats
    ]
    ratio = imported / floor
    cpu_ratio = min(import_cpu) / min(floor_cpu)
    return {
        "figures": [
            {"figure": "import time / floor time", "value": round(ratio, 3), "unit": "x",
             "target": f"<= {TARGET_RATIO}", "pass": ratio <= TARGET_RATIO},
            {"figure": "import throughput", "value": round(count / imported, 1),
             "unit": "pages/s", "target": None, "pass": None},
            {"figure": "floor throughput", "value": round(count / floor, 1),
             "unit": "pages/s", "target": None, "pass": None},
            {"figure": "import CPU / floor CPU", "value": round(cpu_ratio, 3), "unit": "x",
             "target": None, "pass": None},
            *per_format,
        ],
        "formats": formats,
        "encoders": encoders,
        "input": {"series": SERIES, "chapters": len(archives), "pages": count,
                  "covers": sum(cover for _, cover in pages),
                  "bytes": sum(len(data) for data, _ in pages),
                  "generation_s": round(generated, 1)},
        "workers": workers,
        "webp": {"quality": WEBP_QUALITY, "method": WEBP_METHOD},
        "parallel_min_bytes": importer.PARALLEL_MIN_BYTES,
        "floor_s": [round(t, 3) for t in floors],
        "import_s": [round(t, 3) for t in imports],
        "floor_cpu_s": [round(t, 2) for t in floor_cpu],
        "import_cpu_s": [round(t, 2) for t in import_cpu],
    }


class _CpuMeter:
    """CPU seconds used by this process and its descendants (worker pools) while active.

    Descendants are sampled from /proc every SAMPLE seconds (a worker's last
    moments before it exits may be missed); only this process where /proc is missing.
    """

    SAMPLE = 0.1

    def __enter__(self) -> _CpuMeter:
        import threading

        self._tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        self._seen: dict[int, float] = {}
        self._sample()
        self._before = dict(self._seen)  # processes already running (the forkserver)
        self._stop = threading.Event()
        self._own = time.process_time()
        self._thread = threading.Thread(target=self._sample_loop, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()
        children = sum(cpu - self._before.get(pid, 0.0) for pid, cpu in self._seen.items())
        self.seconds = time.process_time() - self._own + children

    def _sample_loop(self) -> None:
        while not self._stop.wait(self.SAMPLE):
            self._sample()

    def _sample(self) -> None:
        for pid in _descendants(os.getpid()):
            try:
                with open(f"/proc/{pid}/stat", "rb") as handle:
                    fields = handle.read().rsplit(b")", 1)[1].split()
            except OSError:
                continue  # already gone: its last sample stands
            cpu = (int(fields[11]) + int(fields[12])) / self._tick
            self._seen[pid] = max(self._seen.get(pid, 0.0), cpu)


def _descendants(root: int) -> list[int]:
    """Process ids below `root` (Linux /proc/PID/task/TID/children), [] elsewhere."""
    found: list[int] = []
    stack = [root]
    while stack:
        pid = stack.pop()
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task}/children") as handle:
                    children = [int(child) for child in handle.read().split()]
            except OSError:
                continue
            found += children
            stack += children
    return found


def _cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _floor_inputs(archives: list[Path]) -> list[tuple[bytes, bool]]:
    """Every page's bytes, and whether it becomes a series cover (page 1 of chapter 1)."""
    pages: list[tuple[bytes, bool]] = []
    first_chapter: set[Path] = set()
    for archive in sorted(archives):  # natural enough: names are zero-padded
        with zipfile.ZipFile(archive) as handle:
            names = sorted(n for n in handle.namelist() if not n.lower().endswith(".xml"))
            for index, name in enumerate(names):
                cover = index == 0 and archive.parent not in first_chapter
                pages.append((handle.read(name), cover))
        first_chapter.add(archive.parent)
    return pages


def _floor(pages: list[tuple[bytes, bool]], workers: int) -> float:
    from manga_app.catalogue.pool import process_pool

    started = time.perf_counter()
    pool = process_pool(workers) if workers > 1 else None
    try:
        if pool is None:
            for data, cover in pages:
                _decode_and_encode(data, cover)
        else:
            futures = [pool.submit(_decode_and_encode, data, cover) for data, cover in pages]
            for future in futures:
                future.result()
    finally:
        if pool is not None:
            pool.shutdown(wait=True)
    return time.perf_counter() - started


def _decode_and_encode(data: bytes, cover: bool) -> int:
    """One page: decode once, encode each derivative (as the media store does, no files)."""
    from manga_app.catalogue import media, page_images

    image = Image.open(io.BytesIO(data))
    jobs = {rel: (media.derivative_size(image.width, image.height, width), False)
            for rel, width in media.page_targets("0" * 64, image.width, image.height)}
    if cover:
        jobs.update({rel: (media.derivative_size(image.width, image.height, width), False)
                     for rel, width in media.cover_targets("0" * 64)})
    largest = max(size for size, _ in jobs.values())
    upright = page_images.decode(image, largest, 1)
    return sum(len(content) for content in page_images.encode_all(upright, jobs).values())


def _import(root: Path, library: Path, workers: int, *, avif: bool = True) -> float:
    """Seconds to import `library` into a new store under `root` (removed after); `avif`
    False imports as `import --defer-avif` does (JPEG and WebP copies only, as before issue 37)."""
    from manga_app.core.db import make_engine, migrate
    from manga_app.catalogue.importer import import_source
    from manga_app.catalogue.media import MediaStore

    root.mkdir(parents=True)
    url = f"sqlite:///{root / 'catalogue.db'}"
    migrate(url)
    engine = make_engine(url)
    try:
        started = time.perf_counter()
        report = import_source(library, engine=engine, media=MediaStore(root / "media", avif=avif),
                               workers=workers)
        elapsed = time.perf_counter() - started
    finally:
        engine.dispose()
    if report.failed:
        raise RuntimeError(f"import failed: {report.failed[:3]}")
    shutil.rmtree(root)
    return elapsed
