"""The Node process that renders pages (renderer.mjs), and the client that asks it.

`python -m manga_app.serve` starts one renderer beside the site and hands
its socket to every worker (MANGA_RENDERER_SOCKET). A process without one
(a test, a tool) starts its own on first use. Either way the renderer
exits with the process that started it (it watches its stdin)."""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import httpx

SOCKET_ENV = "MANGA_RENDERER_SOCKET"
_SCRIPT = Path(__file__).with_name("renderer.mjs")
_ROOT = Path(__file__).resolve().parents[2]
_START_SECONDS = 30


class RenderError(RuntimeError):
    """The renderer could not render a page."""


@dataclass(frozen=True)
class Rendered:
    status: int
    html: str


def node_binary() -> str:
    local = _ROOT / "tools/node_modules/.bin/node"
    found = str(local) if local.exists() else shutil.which("node")
    if not found:
        raise RenderError("Node.js is not installed: run `make setup`")
    return found


def start(web_dir: Path, socket_path: Path) -> subprocess.Popen:
    """Start a renderer for the build in `web_dir`; returns once it listens."""
    process = subprocess.Popen(
        [node_binary(), str(_SCRIPT), str(web_dir), str(socket_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        # React's production build: the development one checks and warns on every render.
        env={**os.environ, "NODE_ENV": "production"},
    )
    ready = threading.Event()
    threading.Thread(target=lambda: process.stdout.readline() and ready.set(), daemon=True).start()
    if not ready.wait(_START_SECONDS) or process.poll() is not None:
        process.kill()
        raise RenderError(f"the page renderer did not start (exit {process.poll()}); is the frontend built?")
    return process


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.stdin.close()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()


class RendererClient:
    """Renders a page URL with a state seed; one per process."""

    def __init__(self, web_dir: Path) -> None:
        self._web_dir = web_dir
        # One connection pool per event loop (a worker has one; tests start several).
        self._clients: dict[int, httpx.AsyncClient] = {}
        self._lock = threading.Lock()

    def start(self) -> None:
        self._socket()

    def _socket(self) -> str:
        existing = os.environ.get(SOCKET_ENV)
        if existing:
            return existing
        with self._lock:
            if not os.environ.get(SOCKET_ENV):
                socket_path = Path(tempfile.mkdtemp(prefix="manga-render-")) / "render.sock"
                process = start(self._web_dir, socket_path)
                atexit.register(stop, process)
                os.environ[SOCKET_ENV] = str(socket_path)
        return os.environ[SOCKET_ENV]

    async def render(self, url: str, seed: str) -> Rendered:
        loop = id(asyncio.get_running_loop())
        client = self._clients.get(loop)
        if client is None:
            transport = httpx.AsyncHTTPTransport(uds=self._socket())
            client = self._clients[loop] = httpx.AsyncClient(transport=transport, base_url="http://renderer", timeout=30)
        try:
            response = await client.post("/", json={"url": url, "seed": seed})
        except httpx.HTTPError as error:
            raise RenderError(f"the page renderer is unreachable: {error}") from error
        if response.status_code != 200:
            raise RenderError(f"the page renderer failed for {url}: {response.text[:500]}")
        return Rendered(int(response.headers.get("x-render-status", "200")), response.text)
