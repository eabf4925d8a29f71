"""The Node process that renders pages (renderer.mjs), and the client that asks it.

Each server process (a uvicorn worker) starts its own renderer, before its
first visitor (ssr.pages.warm_up) or on first use, and starts it again if
it has died. The renderer exits with the process that started it (it
watches its stdin)."""

from __future__ import annotations

import asyncio
import atexit
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import orjson

# The render script drives React Router's server build from outside: the platform wing.
SCRIPT = Path(__file__).resolve().parents[1] / "platform" / "renderer.mjs"
_ROOT = Path(__file__).resolve().parents[2]
_START_SECONDS = 30


class RenderError(RuntimeError):
    """The renderer could not render a page."""


class RendererGone(RenderError):
    """The renderer process died while a page was asked of it."""


def node_binary() -> str:
    local = _ROOT / "tools/node_modules/.bin/node"
    found = str(local) if local.exists() else shutil.which("node")
    if not found:
        raise RenderError("Node.js is not installed: run `make setup`")
    return found


def start(web_dir: Path, socket_path: Path) -> subprocess.Popen:
    """Start a renderer for the build in `web_dir`; returns once it listens."""
    process = subprocess.Popen(
        [node_binary(), str(SCRIPT), str(web_dir), str(socket_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        # React's production build: the development one checks and warns on every render.
        env={**os.environ, "NODE_ENV": "production"},
    )
    # It says "ready" once it listens; an empty line is its end (it failed to start).
    said: list[str] = []
    answered = threading.Event()
    threading.Thread(target=lambda: (said.append(process.stdout.readline()), answered.set()), daemon=True).start()
    if not answered.wait(_START_SECONDS) or said != ["ready\n"]:
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


def _exits_within(process: subprocess.Popen, seconds: float) -> bool:
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        return False
    return True


async def _unreachable(process: subprocess.Popen, error: Exception) -> RenderError:
    """What a failed connection to `process` means: RendererGone when the
    process exits within a second (a new renderer can be asked), else RenderError."""
    gone = await asyncio.to_thread(_exits_within, process, 1.0)
    return (RendererGone if gone else RenderError)(f"the page renderer is unreachable: {error}")


class RendererClient:
    """Renders a page URL with a state seed, through this process's renderer."""

    def __init__(self, web_dir: Path) -> None:
        self._web_dir = web_dir
        self._socket = Path(tempfile.mkdtemp(prefix="manga-render-")) / "render.sock"
        self._process: subprocess.Popen | None = None
        self._lock = threading.Lock()
        # One connection per event loop (a worker has one; tests start several),
        # used by one render at a time: the renderer renders one at a time anyway.
        # Each is to the renderer process it was opened to.
        self._connections: dict[int, tuple[subprocess.Popen, asyncio.StreamReader, asyncio.StreamWriter, asyncio.Lock]] = {}

    def start(self) -> None:
        """Start the renderer unless it runs (blocking: call it off the event loop)."""
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._process = start(self._web_dir, self._socket)
                atexit.register(stop, self._process)

    def _running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    async def render(self, url: str, seed: str) -> str:
        """The page's HTML; RenderError when it cannot be rendered. A renderer
        that died is started again, and the page asked of the new one: a
        process killed a moment ago may not read as exited yet, so the first
        request after it would otherwise be served unrendered."""
        try:
            return await self._render_once(url, seed)
        except RendererGone:
            return await self._render_once(url, seed)

    async def _render_once(self, url: str, seed: str) -> str:
        if not self._running():
            await asyncio.to_thread(self.start)
        loop, process = id(asyncio.get_running_loop()), self._process
        if loop in self._connections and self._connections[loop][0] is not process:
            self._drop(loop, self._connections[loop][2])  # to a renderer since started again
        if loop not in self._connections:
            try:
                reader, writer = await asyncio.open_unix_connection(str(self._socket))
            except OSError as error:
                raise await _unreachable(process, error) from error
            self._connections[loop] = (process, reader, writer, asyncio.Lock())
        connected_to, reader, writer, lock = self._connections[loop]
        request = orjson.dumps({"url": url, "seed": seed})
        async with lock:
            try:
                writer.write(len(request).to_bytes(4, "big") + request)
                head = await reader.readexactly(8)
                body = (await reader.readexactly(int.from_bytes(head[4:], "big"))).decode()
            except (OSError, asyncio.IncompleteReadError) as error:
                self._drop(loop, writer)
                raise await _unreachable(connected_to, error) from error
            except asyncio.CancelledError:
                self._drop(loop, writer)  # an answer half read would be the next render's
                raise
        if int.from_bytes(head[:4], "big") >= 500:
            raise RenderError(f"the page renderer failed for {url}: {body[:500]}")
        return body

    def _drop(self, loop: int, writer: asyncio.StreamWriter) -> None:
        """Forget this loop's connection: its next render opens a new one (to a
        renderer started again, if this one died)."""
        if self._connections.get(loop, (None, None, None, None))[2] is writer:
            del self._connections[loop]
        writer.close()
