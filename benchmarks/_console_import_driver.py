"""The operator's side of bench_console_import, in a process of its own with
the site's settings (DATA_DIR, REFLEX_DB_URL from the environment), as the
console's server would be: everything imported and the database migrated
before it prints `ready`; then, at the line on stdin, Confirm and import of
the staged files (uploads/confirm.confirm, what the upload page's button
runs) and the job followed until it is finished. Prints `<seconds> <status> <summary>`.

    python -m benchmarks._console_import_driver UID
"""

from __future__ import annotations

import sys
import time


def main(uid: str) -> None:
    from sqlmodel import Session

    from manga_app.catalogue.metadata import Actor
    from manga_app.core.config import get_settings
    from manga_app.core.db import migrate, shared_engine
    from manga_app.jobs.models import FINISHED, ImportJob
    from manga_app.uploads import confirm

    migrate()
    engine = shared_engine()
    print("ready", flush=True)
    sys.stdin.readline()
    started = time.perf_counter()
    with Session(engine) as session:
        job_id = confirm.confirm(session, get_settings(), Actor(uid, "bench@example.com")).id
    while True:
        with Session(engine) as session:
            job = session.get(ImportJob, job_id)
            if job.status in FINISHED:
                print(f"{time.perf_counter() - started:.3f} {job.status} {job.summary}", flush=True)
                return
        time.sleep(0.05)


if __name__ == "__main__":
    main(sys.argv[1])
