"""Console import against `make import`: the same files imported by Confirm and import on the upload page (the real job) and by the CLI, same run (issue 35).

The files: the first SERIES series of the generated demo library (fixed seed
and date). Each side imports them into an empty site of its own (data
folder, SQLite database): the CLI as `make import SRC=…` runs it
(`python -m manga_app.catalogue import`, its process start included, since
that is what the operator waits for); the console as the site runs it, the
job consumer (`python -m manga_app.jobs`) already running beside it and the
files already uploaded (copied into the operator's staging folder, as tus
leaves them), timed from the confirm (uploads/confirm.confirm, what the
button runs) to the job's finished row, its publish included (the CLI
publishes too). A round runs both, alternately first; the figure is the
ratio of the medians of ROUNDS rounds. Target: console / CLI <= 1.0, no
tolerance added.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SERIES = 6
ROUNDS = 3
TARGET_RATIO = 1.0
NOW = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
UID = "bench-operator"


def _env(data: Path) -> dict[str, str]:
    return {**os.environ, "DATA_DIR": str(data), "REFLEX_DB_URL": f"sqlite:///{data / 'site.db'}",
            "PYTHONDONTWRITEBYTECODE": "1"}


def _cli(library: Path, data: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "manga_app.catalogue", "import", str(library)], cwd=ROOT,
                          env=_env(data), capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"make import failed: {done.stdout[-1500:]}{done.stderr[-1500:]}")
    return elapsed


@contextlib.contextmanager
def _consumer(data: Path):
    with (data / "consumer.log").open("wb") as log:
        process = subprocess.Popen([sys.executable, "-m", "manga_app.jobs"], cwd=ROOT, env=_env(data),
                                   stdout=log, stderr=subprocess.STDOUT)
    try:
        yield
    finally:
        process.terminate()
        process.wait(timeout=60)


def _console(library: Path, data: Path) -> float:
    from manga_app.core.config import Settings
    from manga_app.uploads import staging

    data.mkdir(parents=True)
    driver = subprocess.Popen([sys.executable, "-m", "benchmarks._console_import_driver", UID], cwd=ROOT,
                              env=_env(data), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        if driver.stdout.readline().strip() != "ready":  # migrated: the consumer starts on that database
            raise RuntimeError("the console driver did not start")
        with _consumer(data):
            shutil.copytree(library, staging.staged_dir(Settings(data_dir=data), UID))
            time.sleep(2.0)  # the consumer is up and polling its queue, as beside a running site
            driver.stdin.write("go\n")
            driver.stdin.flush()
            seconds, status, summary = driver.stdout.readline().split(" ", 2)
    finally:
        driver.kill()
        driver.wait()
    if status != "done" or " 0 failed" not in summary:
        raise RuntimeError(f"the console's job ended {status}: {summary}")
    return float(seconds)


def run(results_dir: Path) -> dict:
    from manga_app.demo import generate_demo_library

    with tempfile.TemporaryDirectory(prefix="bench-console-import-") as temp:
        root = Path(temp)
        library = root / "library"
        generate_demo_library(library, series_count=SERIES, now=NOW)
        files = sum(1 for path in library.rglob("*") if path.is_file())
        cli, console = [], []
        for attempt in range(ROUNDS):
            sides = [("cli", _cli), ("console", _console)]
            for name, side in sides if attempt % 2 == 0 else reversed(sides):
                (cli if name == "cli" else console).append(side(library, root / f"{name}{attempt}"))
            print(f"   round {attempt + 1}: make import {cli[-1]:.2f} s, console {console[-1]:.2f} s", flush=True)
    ratio = statistics.median(console) / statistics.median(cli)
    return {
        "series": SERIES,
        "files": files,
        "rounds": {"make_import_s": [round(t, 3) for t in cli], "console_s": [round(t, 3) for t in console]},
        "figures": [
            {"figure": "console import / make import time, same files", "value": round(ratio, 3), "unit": "x",
             "target": f"<= {TARGET_RATIO}", "pass": ratio <= TARGET_RATIO},
            {"figure": "make import (median)", "value": round(statistics.median(cli), 2), "unit": "s",
             "target": None, "pass": None},
            {"figure": "console import (median)", "value": round(statistics.median(console), 2), "unit": "s",
             "target": None, "pass": None},
        ],
    }
