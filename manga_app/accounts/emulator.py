"""The Firebase Auth emulator (firebase-tools, installed under
tools/firebase/) as a subprocess, for `make run` and the tests.

An emulator already answering on the port is reused, not started twice, so
parallel test runs and a running `make run` share one.

    python -m manga_app.accounts.emulator            # run until Ctrl-C
    python -m manga_app.accounts.emulator --check    # exit 0 when one answers
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

from manga_app.accounts.settings import DEFAULT_EMULATOR_HOST, DEFAULT_PROJECT_ID

PROJECT_ROOT = Path(__file__).resolve().parents[2]
FIREBASE_BIN = PROJECT_ROOT / "tools/firebase/node_modules/.bin/firebase"
NODE_BIN_DIR = PROJECT_ROOT / "tools/node_modules/.bin"
START_TIMEOUT = 90.0


class EmulatorError(RuntimeError):
    pass


def is_ready(host: str = DEFAULT_EMULATOR_HOST) -> bool:
    """True when an Auth emulator answers on `host` (host:port)."""
    try:
        response = httpx.get(f"http://{host}/", timeout=2)
        return response.status_code == 200 and bool(response.json().get("authEmulator", {}).get("ready"))
    except (httpx.HTTPError, ValueError):
        return False


def start(project_id: str = DEFAULT_PROJECT_ID, *, log_path: Path | None = None) -> subprocess.Popen:
    """Start `firebase emulators:start --only auth` (ports from firebase.json)."""
    if not FIREBASE_BIN.exists():
        raise EmulatorError(f"firebase-tools is not installed: run `cd tools/firebase && npm ci` ({FIREBASE_BIN})")
    env = {
        **os.environ,
        # Node 22 from tools/ first; firebase-tools must not phone home.
        "PATH": f"{NODE_BIN_DIR}:{os.environ.get('PATH', '')}",
        "FIREBASE_CLI_DISABLE_UPDATE_CHECK": "true",
        "FIREBASE_SKIP_UPDATE_CHECK": "1",
        "CI": "true",
    }
    env.pop("FIREBASE_AUTH_EMULATOR_HOST", None)
    out = open(log_path, "w") if log_path else subprocess.DEVNULL  # noqa: SIM115 - closed with the process
    return subprocess.Popen(
        [str(FIREBASE_BIN), "emulators:start", "--only", "auth", "--project", project_id],
        cwd=PROJECT_ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
        stdin=subprocess.DEVNULL,
        start_new_session=True,
    )


def wait_until_ready(process: subprocess.Popen | None, host: str = DEFAULT_EMULATOR_HOST, timeout: float = START_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if is_ready(host):
            return
        if process is not None and process.poll() is not None:
            raise EmulatorError(f"the Auth emulator exited with status {process.returncode}")
        time.sleep(0.3)
    raise EmulatorError(f"the Auth emulator did not answer on {host} within {timeout:.0f}s")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGINT)
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=5)


@contextlib.contextmanager
def running_emulator(
    project_id: str = DEFAULT_PROJECT_ID, host: str = DEFAULT_EMULATOR_HOST, *, log_path: Path | None = None
) -> Iterator[str]:
    """An Auth emulator for the block (reused when one already runs); yields host:port."""
    if is_ready(host):
        yield host
        return
    process = start(project_id, log_path=log_path)
    try:
        wait_until_ready(process, host)
        yield host
    finally:
        stop(process)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run the Firebase Auth emulator for local development.")
    parser.add_argument("--project", default=os.environ.get("FIREBASE_PROJECT_ID", DEFAULT_PROJECT_ID))
    parser.add_argument("--check", action="store_true", help="exit 0 when an emulator answers, 1 otherwise")
    args = parser.parse_args(argv)
    if args.check:
        return 0 if is_ready() else 1
    if not args.project.startswith("demo-"):
        print("The emulator is only for demo- projects.", file=sys.stderr)
        return 2
    # SIGTERM (make stopping us) ends the block like Ctrl-C, so the emulator stops too.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    # A background job starts with SIGINT ignored; Ctrl-C and `kill -INT` must still stop us.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with running_emulator(args.project):
            print(f"Firebase Auth emulator ready on http://{DEFAULT_EMULATOR_HOST} (project {args.project})", flush=True)
            while True:
                time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    except EmulatorError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
