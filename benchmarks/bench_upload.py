"""Console upload throughput: a 500 MB CBZ over loopback through /admin/tus against a plain `curl -T` PUT (issue 35).

The tus side speaks the protocol as the browser's Uppy does: a POST that
makes the upload, then a PATCH per 8 MB chunk (Uppy's chunkSize,
assets/js/uploader.jsx) one after the other on one kept-alive connection,
the operator's Firebase ID token from the Auth emulator on every request.
It is curl too (--next keeps the connection), so both sides have the same
client and the figure is the server's protocol against none. The real
client the unit tests use (tuspy, a new connection per chunk and Python
reading the file) is measured beside it for information.
The plain side is `curl -T` of the same file to the same server process: a
raw PUT target the harness serves in place of Reflex (benchmarks/
_upload_server.py), writing the body to the same folder. A plain PUT rather
than curl speaking tus in one PATCH: that would run the tus endpoint's own
code for both and measure only the chunking, while the bar is the protocol
against no protocol at all.

The file: 500 MB of noise pages (PNG, stored uncompressed, so nothing
compresses) in a stored ZIP, made in a temporary folder and removed after.
After an untimed warm-up (the server builds its tus router on its first
request), curl and tus alternate ROUNDS times; the figure is the ratio of
the medians (tus throughput / curl throughput), so the machine's load counts
on both sides. Target: >= 0.5.
"""

from __future__ import annotations

import base64
import contextlib
import io
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SIZE_BYTES = 500 * 1000 * 1000
CHUNK_BYTES = 8 * 1024 * 1024  # Uppy's chunkSize in assets/js/uploader.jsx
PAGE_SIDE = 2000  # 2000 x 2000 RGB noise: 12 MB a page
ROUNDS = 5
TARGET_RATIO = 0.5


def make_cbz(path: Path, size: int = SIZE_BYTES) -> int:
    """A stored CBZ of about `size` bytes of incompressible PNG pages."""
    from PIL import Image

    page_bytes = PAGE_SIDE * PAGE_SIDE * 3
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_STORED) as archive:
        for number in range(1, size // page_bytes + 2):
            image = Image.frombytes("RGB", (PAGE_SIDE, PAGE_SIDE), os.urandom(page_bytes))
            buffer = io.BytesIO()
            image.save(buffer, "PNG", compress_level=0)
            archive.writestr(f"{number:03d}.png", buffer.getvalue())
            if path.stat().st_size >= size:
                break
    return path.stat().st_size


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"upload server exited: {log.read_text()[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return
        time.sleep(0.2)
    raise RuntimeError(f"upload server never answered: {log.read_text()[-2000:]}")


@contextlib.contextmanager
def upload_server(data: Path, operator_email: str):
    port = _free_port()
    env = {**os.environ, "DATA_DIR": str(data), "REFLEX_DB_URL": f"sqlite:///{data / 'bench.db'}",
           "ADMIN_EMAILS": operator_email, "UPLOAD_KEEP_FREE_BYTES": "0", "UNSAFE_ALLOW_AUTH_EMULATOR": "1",
           "FIREBASE_AUTH_EMULATOR_HOST": _emulator_host()}
    log = data / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "benchmarks._upload_server", str(port)], cwd=ROOT, env=env,
                                   stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_for(port, process, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=30)


def _emulator_host() -> str:
    from manga_app.accounts.settings import DEFAULT_EMULATOR_HOST

    return DEFAULT_EMULATOR_HOST


def _curl_put(base: str, source: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(["curl", "-sS", "--fail", "-T", str(source), "-o", "/dev/null", f"{base}/plain-put/bench"],
                          capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"curl PUT failed: {done.stderr}")
    return elapsed


def _tus_upload(base: str, source: Path, token: str) -> float:
    from tusclient import client as tus  # imported by the warm-up, before any timing

    started = time.perf_counter()
    client = tus.TusClient(f"{base}/admin/tus", headers={"Authorization": f"Bearer {token}"})
    client.uploader(file_path=str(source), chunk_size=CHUNK_BYTES,
                    metadata={"filename": source.name, "filetype": "application/zip"}).upload()
    return time.perf_counter() - started


def _split(source: Path, folder: Path) -> list[Path]:
    """The file in CHUNK_BYTES pieces, as the browser's Uppy reads it (made before any timing)."""
    folder.mkdir()
    pieces = []
    with source.open("rb") as whole:
        while chunk := whole.read(CHUNK_BYTES):
            pieces.append(folder / f"{len(pieces):04d}")
            pieces[-1].write_bytes(chunk)
    return pieces


def _tus_upload_curl(base: str, source: Path, pieces: list[Path], token: str) -> float:
    """The tus protocol as the browser speaks it: a POST that makes the upload, then one PATCH per
    8 MB chunk, one after the other on one kept-alive connection, each with the operator's token
    (curl's --next reuses the connection, as the browser's fetch does)."""
    tus = ["-H", "Tus-Resumable: 1.0.0", "-H", f"Authorization: Bearer {token}"]
    metadata = ",".join(f"{key} {base64.b64encode(value.encode()).decode()}"
                        for key, value in (("filename", source.name), ("filetype", "application/zip")))
    started = time.perf_counter()
    made = subprocess.run(["curl", "-sS", "--fail", "-X", "POST", *tus, "-H", f"Upload-Length: {source.stat().st_size}",
                           "-H", f"Upload-Metadata: {metadata}", "-o", "/dev/null", "-D", "-", f"{base}/admin/tus"],
                          capture_output=True, text=True)
    location = next((line.split(":", 1)[1].strip() for line in made.stdout.splitlines()
                     if line.lower().startswith("location:")), "")
    if made.returncode != 0 or not location:
        raise RuntimeError(f"tus POST failed: {made.stderr or made.stdout}")
    url = location if location.startswith("http") else base + location
    command, offset = ["curl", "-sS", "--fail"], 0
    for number, piece in enumerate(pieces):
        command += [*(["--next"] if number else []), "-X", "PATCH", *tus, "-H", f"Upload-Offset: {offset}",
                    "-H", "Content-Type: application/offset+octet-stream", "-T", str(piece), "-o", "/dev/null", url]
        offset += piece.stat().st_size
    sent = subprocess.run(command, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if sent.returncode != 0:
        raise RuntimeError(f"tus PATCH failed: {sent.stderr}")
    return elapsed


def _clear(data: Path) -> None:
    """What an upload left (the plain file, the staged file): the next one starts from the same disk."""
    for folder in (data / "uploads" / "incoming", data / "uploads" / "staged"):
        shutil.rmtree(folder, ignore_errors=True)


def run(results_dir: Path) -> dict:
    from manga_app.accounts import emulator
    from tests.unit.accounts.emulator_accounts import google_token

    with tempfile.TemporaryDirectory(prefix="bench-upload-") as temp:
        root = Path(temp)
        source = root / "ベンチ 第1話.cbz"
        size = make_cbz(source)
        data = root / "data"
        data.mkdir()
        email = f"bench-{uuid.uuid4().hex[:8]}@example.com"
        emulated = contextlib.nullcontext() if emulator.is_ready() else emulator.running_emulator(
            log_path=root / "emulator.log")
        with emulated, upload_server(data, email) as base:
            token = google_token(email)
            # Warm-up, not timed: the server builds its tus router on the first request, the client imports tuspy.
            warm = root / "warm 第1話.cbz"
            warm.write_bytes(os.urandom(CHUNK_BYTES + 1))
            _tus_upload(base, warm, token)
            _curl_put(base, warm)
            _clear(data)
            pieces = _split(source, root / "pieces")
            curl, tus, tuspy = [], [], []
            for attempt in range(ROUNDS):
                curl.append(_curl_put(base, source))
                _clear(data)
                for times, upload in ((tus, lambda: _tus_upload_curl(base, source, pieces, token)),
                                      (tuspy, lambda: _tus_upload(base, source, token))):
                    times.append(upload())
                    staged = list((data / "uploads" / "staged").rglob("*.cbz"))
                    if len(staged) != 1 or staged[0].stat().st_size != size:
                        raise RuntimeError(f"the tus upload did not stage the whole file: {staged}")
                    _clear(data)
                print(f"   round {attempt + 1}: curl PUT {size / curl[-1] / 1e6:.0f} MB/s, "
                      f"tus {size / tus[-1] / 1e6:.0f} MB/s, tuspy {size / tuspy[-1] / 1e6:.0f} MB/s", flush=True)
    ratio = statistics.median(curl) / statistics.median(tus)
    return {
        "size_bytes": size,
        "chunk_bytes": CHUNK_BYTES,
        "rounds": {"curl_s": [round(t, 3) for t in curl], "tus_s": [round(t, 3) for t in tus],
                   "tuspy_s": [round(t, 3) for t in tuspy]},
        "figures": [
            {"figure": "tus upload / curl PUT throughput, 500 MB CBZ", "value": round(ratio, 3), "unit": "x",
             "target": f">= {TARGET_RATIO}", "pass": ratio >= TARGET_RATIO},
            {"figure": "tus upload throughput (median)", "value": round(size / statistics.median(tus) / 1e6, 1),
             "unit": "MB/s", "target": None, "pass": None},
            {"figure": "tuspy client (a new connection per chunk) / curl PUT, for information",
             "value": round(statistics.median(curl) / statistics.median(tuspy), 3), "unit": "x", "target": None,
             "pass": None},
            {"figure": "curl PUT throughput (median)", "value": round(size / statistics.median(curl) / 1e6, 1),
             "unit": "MB/s", "target": None, "pass": None},
        ],
    }
