"""The importer's page workers give way to the site: they run at a lower
priority than the process that started them (the server, for a job)."""

from __future__ import annotations

import os

from manga_app.catalogue.pool import WORKER_NICENESS, process_pool


def test_page_workers_run_at_a_lower_priority_than_the_importer():
    with process_pool(2) as pool:
        niceness = set(pool.map(os.nice, [0] * 4))
    assert niceness == {min(19, os.nice(0) + WORKER_NICENESS)}


def _where(_: int) -> tuple[int, list[int]]:
    import time

    time.sleep(0.3)  # long enough for every worker to take one
    return os.getpid(), sorted(os.sched_getaffinity(0))


def test_page_workers_keep_to_a_cpu_each_when_there_are_enough():
    cpus = sorted(os.sched_getaffinity(0))
    with process_pool(len(cpus)) as pool:
        seen = dict(pool.map(_where, range(len(cpus) * 2)))
    assert len(seen) == len(cpus) >= 2  # the test machines have 2 cores
    assert sorted(cpu for affinity in seen.values() for cpu in affinity) == cpus
    # More workers than CPUs (the benchmarks' scoring pool): none is tied to one.
    with process_pool(len(cpus) + 2) as pool:
        assert {tuple(affinity) for _, affinity in pool.map(_where, range(len(cpus) + 2))} == {tuple(cpus)}
