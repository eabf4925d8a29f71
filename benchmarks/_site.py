"""The site as benchmarks run it: built and served the way `make run` does
(production build, one port), on a demo library in a temporary data folder,
with the project's own toolchain and Debian's Chromium."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
PYTHON = str(ROOT / ".venv/bin/python")
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
# The machine's network is closed: Chromium must not try to reach out.
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def tool_env(**extra: str) -> dict[str, str]:
    """The environment of the Makefile: project-local Node and bun, the venv."""
    path = f"{ROOT / 'tools/node_modules/.bin'}:{ROOT / '.venv/bin'}:{os.environ['PATH']}"
    return {**os.environ, "PATH": path, "REFLEX_USE_SYSTEM_BUN": "1", "PYTHONDONTWRITEBYTECODE": "1", **extra}


def require_chromium(what: str) -> None:
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"no Chromium at {CHROMIUM}: {what} cannot be measured")


def _wait(url: str, process: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/ping", timeout=2).status_code == 200:
                return
        time.sleep(0.5)
    raise RuntimeError(f"no answer from {url}")


@contextlib.contextmanager
def serve(command: list[str], cwd: Path, env: dict[str, str], url: str) -> Iterator[str]:
    """Run a server until the block ends; its log is shown if it never answers."""
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            try:
                _wait(url, process)
            except RuntimeError as error:
                log.seek(0)
                raise RuntimeError(f"{error}: {log.read()[-2000:].decode(errors='replace')}") from None
            yield url
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=15)


@contextlib.contextmanager
def built_and_served(port: int, web_dir: str, env: dict[str, str]) -> Iterator[str]:
    """The production build for `port` in `web_dir` (made when sources
    changed), served as `make run` serves it; yields its URL."""
    subprocess.run(["make", "--no-print-directory", "build", f"PORT={port}", f"WEB_DIR={web_dir}"],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    command = [PYTHON, "-m", "manga_app.serve", "--port", str(port), "--host", "127.0.0.1"]
    with serve(command, ROOT, env, f"http://localhost:{port}") as url:
        yield url


@contextlib.contextmanager
def served_site(
    port: int, web_dir: str, *, series: int | None = 8, library: Path | None = None, db_url: str | None = None,
    **settings: str,
) -> Iterator[tuple[str, Path]]:
    """The site on `port` (its own build folder) with a demo library: `series`
    generated series (None: the whole demo, as `make run` serves it) with the
    demo's view counts and history (the rankings, 人気 and 今日のランキング
    show them, as on `make run` and the e2e server), or the archives in
    `library`; in a SQLite file unless `db_url` is given. Yields its URL and
    data folder."""
    with tempfile.TemporaryDirectory(prefix=f"bench-{port}-") as temp:
        data = Path(temp)
        env = tool_env(PORT=str(port), DATA_DIR=str(data), REFLEX_DB_URL=db_url or f"sqlite:///{data / 'bench.db'}",
                       REFLEX_WEB_WORKDIR=web_dir, SITE_ORIGIN=f"http://localhost:{port}", **settings)
        generated = library is None
        if generated:
            library = data / "demo"
            count = [] if series is None else ["--series", str(series)]
            subprocess.run([PYTHON, "-m", "manga_app.demo", str(library), *count], cwd=ROOT, env=env, check=True, capture_output=True)
        subprocess.run([PYTHON, "-m", "manga_app.catalogue", "import", str(library)], cwd=ROOT, env=env, check=True, capture_output=True)
        if generated:
            subprocess.run([PYTHON, "-m", "manga_app.demo.view_counts"], cwd=ROOT, env=env, check=True, capture_output=True)
        with built_and_served(port, web_dir, env) as url:
            yield url, data


def board_ready(url: str) -> float:
    """Seconds until the board computed at start replaces the 集計中 page (requests meanwhile do not wait)."""
    started = time.perf_counter()
    while True:
        response = httpx.get(f"{url}/ranking?page=50", timeout=60)
        assert response.status_code == 200, response.status_code
        if "集計中" not in response.text:
            return time.perf_counter() - started
        time.sleep(0.5)
