"""A test's own Redis and PostgreSQL servers, on ports of its own, which the
test may stop and start (the machine's shared services are never touched).

`OwnRedis(port, folder)`: redis-server, persistent or not. `OwnPostgres(port)`: a cluster made by initdb (run as the `postgres` user when the test
runs as root, since PostgreSQL refuses to run as root), trusting local
connections, its socket in the folder."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))


def _answers(port: int) -> bool:
    with socket.socket() as probe:
        probe.settimeout(0.5)
        return probe.connect_ex(("127.0.0.1", port)) == 0


def _wait(predicate, what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} within {timeout}s")
        time.sleep(0.1)


class OwnRedis:
    """`persist`: as a deployed Redis, it writes its data to disk when it
    stops (SIGTERM) and reads it back when it starts."""

    def __init__(self, port: int, folder: Path, *, persist: bool = False) -> None:
        self.port, self.folder, self.persist = port, folder, persist
        self.url = f"redis://127.0.0.1:{port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        if _answers(self.port):
            raise RuntimeError(f"something already listens on port {self.port}: not this test's Redis")
        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "3600 1" if self.persist else "", "--appendonly", "no",
             "--dir", str(self.folder)],
            stdout=open(self.folder / "redis.log", "a"), stderr=subprocess.STDOUT, start_new_session=True,
        )
        _wait(lambda: _answers(self.port), f"redis-server did not answer on {self.port}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=15)
        self.process = None


class OwnPostgres:
    """`folder` is made under /tmp (pytest's own folders are closed to the
    `postgres` user); `remove()` deletes it once the cluster is stopped."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.folder = Path(tempfile.mkdtemp(prefix=f"own-postgres-{port}-"))
        self.data = self.folder / "cluster"
        self.url = f"postgresql+psycopg://postgres@127.0.0.1:{port}/manga"

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [str(PG_BIN / args[0]), *args[1:]]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "postgres", "--", *command]
        done = subprocess.run(command, capture_output=True, text=True)
        if check and done.returncode:
            raise RuntimeError(f"{args[0]} failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
        return done

    def init(self) -> None:
        if _answers(self.port):
            raise RuntimeError(f"something already listens on port {self.port}: not this test's PostgreSQL")
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self._run("initdb", "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "postgres", "manga")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200"
        self._run("pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "postgres.log"), "-w", "start")
        _wait(lambda: _answers(self.port), f"PostgreSQL did not answer on {self.port}")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop", check=False)

    def restart(self) -> None:
        self.stop()
        self.start()

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]
