"""Serve the already-built production app on one port.

`reflex run --env prod` recompiles and rebuilds the frontend on every start;
the Makefile builds only when sources change, so this serves the existing
build with uvicorn (asyncio's loop, httptools, websockets' sans-I/O protocol;
WEB_CONCURRENCY workers, more than one only with REFLEX_REDIS_URL).
Usage: python -m manga_app.serve [--port N]

Why not granian, Reflex's default: each of its websockets holds about
150 KB of native buffers (tungstenite's default 128 KiB read and write
buffers, not configurable through granian), against a few KB for
uvicorn's; a site holds one websocket per open tab (issue 19, benchmarks/
bench_load.py). Per-message deflate is off for the same reason: a zlib
context per tab costs more than the small JSON deltas it would save.

With the local default (a `demo-` Firebase project) the Firebase Auth
emulator runs beside the site for as long as it does; one already answering
on its port is reused."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys

import uvicorn
from reflex.istate.manager import reset_disk_state_manager
from reflex.utils import exec as reflex_exec
from reflex_base import constants
from reflex_base.config import get_config
from reflex_base.environment import environment

from manga_app.accounts import emulator
from manga_app.accounts.settings import check_firebase_at_startup
from manga_app.core.db import database_wait_seconds, migrate
from manga_app.core.config import get_settings
from manga_app.jobs.consumer import consumer_beside
from manga_app.web.origins import allowed_origins
from manga_app.ssr.shell import static_dir
from manga_app.platform import versions
from manga_app.platform.http_protocol import HeaderDeadlineProtocol
from manga_app.platform.websocket_protocol import WebSocketProtocol


def _stop_gracefully_on_sigterm() -> None:
    """Once uvicorn has shut down on a SIGTERM it raises that signal again. By
    default that ends the process on the spot, before what was started beside
    the server (the job consumer, the Auth emulator) is stopped: a `kill` of
    the server left its consumer running. Here it ends the process as an exit,
    so they are stopped first."""
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(0))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "3000")))
    parser.add_argument("--host", default=os.environ.get("HOST", "0.0.0.0"))
    args = parser.parse_args()
    try:  # the platform wing is written for the pinned framework versions only
        versions.check(web_dir=static_dir().parent.parent)
    except versions.FrameworkVersionError as error:
        raise SystemExit(str(error)) from None
    if not (static_dir() / "index.html").is_file():
        raise SystemExit("The frontend is not built yet: run `make build` (or `make run`).")
    workers = int(os.environ.get("WEB_CONCURRENCY") or 1)
    if workers > 1 and not os.environ.get("REFLEX_REDIS_URL"):
        # Without Redis each worker would hold its own visitors' states: a
        # visitor whose events reach another worker would lose theirs.
        raise SystemExit("WEB_CONCURRENCY > 1 needs REFLEX_REDIS_URL: without Redis, state is held in one "
                         "worker's memory.")
    if os.environ.get("REFLEX_REDIS_URL"):
        # All of a tab's events reach the worker holding its websocket, so that
        # worker keeps the tab's state between events (Reflex's opportunistic
        # lock, given up when another worker asks) rather than reading and
        # writing it in Redis for each: 3 workers answer 1.75x one worker's
        # saturated events, against 0.5-0.8x without (issue 19, bench_load).
        # REFLEX_OPLOCK_ENABLED=0 turns it off.
        os.environ.setdefault("REFLEX_OPLOCK_ENABLED", "1")
        # A visitor's write waits for a restarting database (core/db.py) while
        # its event holds the tab's state lock in Redis: with Reflex's 10 s
        # lock, an event that waited longer had its state refused and the
        # tab's next writes were lost (6 of 10 readers' in
        # tests/e2e/test_outage.py). The lock outlasts the wait.
        os.environ.setdefault("REFLEX_REDIS_LOCK_EXPIRATION", str(int((database_wait_seconds() + 10) * 1000)))
    environment.REFLEX_ENV_MODE.set(constants.Env.PROD)
    # The build is done; workers must not compile again.
    environment.REFLEX_SKIP_COMPILE.set(True)
    environment.REFLEX_MOUNT_FRONTEND_COMPILED_APP.set(True)
    # Nothing is written there any more (state is in memory or Redis): clear
    # what an older version of the site left behind.
    reset_disk_state_manager()
    # A newer checkout may bring new tables: bring the database up to date
    # before any worker queries it (alembic upgrade head; a no-op when current).
    migrate()
    firebase = check_firebase_at_startup()
    # CORS and the websocket's Origin (engine.io checks it against the same
    # list): the site's origins only, never "*" with credentials. The
    # workers read it from the environment when they build the app.
    settings = get_settings()
    origins = allowed_origins(site_origin=settings.origin, production_host=settings.production_host,
                              port=args.port, local=firebase.emulated)
    os.environ["REFLEX_CORS_ALLOWED_ORIGINS"] = ",".join(origins)
    auth = (
        emulator.running_emulator(firebase.project_id, firebase.emulator_host)
        if firebase.emulated
        else contextlib.nullcontext()
    )
    reflex_exec.get_app_file()  # the app module is found (and the project on sys.path) before workers import it
    # The import jobs' consumer, a process of its own (manga_app/jobs/consumer.py says why).
    _stop_gracefully_on_sigterm()
    with auth, consumer_beside():
        print(f"漫画ひろば is running at http://localhost:{args.port}/", flush=True)
        if firebase.emulated:
            print(f"Operator console: http://localhost:{args.port}/admin (an account named in ADMIN_EMAILS, or "
                  "`make operator EMAIL=you@example.com`, then Googleでログイン there with that address)", flush=True)
        uvicorn.run(
            # Reflex's app, with the event websocket handed straight to socket.io (platform/event_socket.py).
            "manga_app.platform.event_socket:app",
            factory=True,
            host=args.host,
            port=args.port,
            workers=workers,
            # asyncio's own loop, not uvloop: a saturated worker on uvloop answers some connections
            # very late (a bare ASGI app at 100 connections: p99 700-900 ms against 30 ms on asyncio,
            # at the same requests a second), and here it cost no more CPU per websocket event
            # (README, "HTTP"; benchmarks/bench_load.py).
            loop="asyncio",
            # httptools, with a deadline for each request's headers (platform/http_protocol.py).
            http=HeaderDeadlineProtocol,
            # websockets' sans-I/O protocol, holding less per open websocket (platform/websocket_protocol.py).
            ws=WebSocketProtocol,
            ws_per_message_deflate=False,
            # engine.io pings every tab itself.
            ws_ping_interval=None,
            lifespan="on",
            log_level=get_config().loglevel.subprocess_level().value,
            access_log=False,
            # No "Server: uvicorn": what runs the site is nobody's business.
            server_header=False,
            # The client address (per-address rate limits) from X-Forwarded-For,
            # trusted only from FORWARDED_ALLOW_IPS (uvicorn's; default 127.0.0.1,
            # a reverse proxy on this machine).
            proxy_headers=True,
        )


if __name__ == "__main__":
    main()
