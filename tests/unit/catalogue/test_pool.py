"""The importer's page workers give way to the site: they run at a lower
priority than the process that started them (the server, for a job)."""

from __future__ import annotations

import os

from manga_app.catalogue.pool import WORKER_NICENESS, process_pool


def test_page_workers_run_at_a_lower_priority_than_the_importer():
    with process_pool(2) as pool:
        niceness = set(pool.map(os.nice, [0] * 4))
    assert niceness == {min(19, os.nice(0) + WORKER_NICENESS)}
