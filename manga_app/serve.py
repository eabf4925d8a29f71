"""Serve the already-built production app on one port.

`reflex run --env prod` recompiles and rebuilds the frontend on every start;
the Makefile builds only when sources change, so this runs Reflex's own
production server (granian, workers from REFLEX_REDIS_URL / GRANIAN_WORKERS)
on the existing build. Usage: python -m manga_app.serve [--port N]

With the local default (a `demo-` Firebase project) the Firebase Auth
emulator runs beside the site for as long as it does; one already answering
on its port is reused."""

from __future__ import annotations

import argparse
import contextlib
import os

from reflex.istate.manager import reset_disk_state_manager
from reflex.utils import exec as reflex_exec
from reflex_base import constants
from reflex_base.config import get_config
from reflex_base.environment import environment

from manga_app.accounts import emulator
from manga_app.accounts.settings import check_firebase_at_startup
from manga_app.core.db import migrate
from manga_app.core.config import get_settings
from manga_app.web.origins import allowed_origins
from manga_app.web.shell import static_dir


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "3000")))
    parser.add_argument("--host", default=os.environ.get("HOST", "0.0.0.0"))
    args = parser.parse_args()
    if not (static_dir() / "index.html").is_file():
        raise SystemExit("The frontend is not built yet: run `make build` (or `make run`).")
    if int(os.environ.get("GRANIAN_WORKERS") or 1) > 1 and not os.environ.get("REFLEX_REDIS_URL"):
        # Without Redis each worker would hold its own visitors' states: a
        # visitor whose events reach another worker would lose theirs.
        raise SystemExit("GRANIAN_WORKERS > 1 needs REFLEX_REDIS_URL: without Redis, state is held in one "
                         "worker's memory.")
    environment.REFLEX_ENV_MODE.set(constants.Env.PROD)
    # The build is done; workers must not compile again.
    environment.REFLEX_SKIP_COMPILE.set(True)
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
    with auth:
        print(f"漫画ひろば is running at http://localhost:{args.port}/", flush=True)
        reflex_exec.run_backend_prod(
            args.host,
            args.port,
            get_config().loglevel.subprocess_level(),
            mount_frontend_compiled_app=True,
        )


if __name__ == "__main__":
    main()
