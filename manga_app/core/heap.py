"""The worker's long-lived objects kept out of the cyclic collector's way.

The held catalogue, the app's compiled pages and the imported modules live
as long as the worker; every full collection would walk them again (with
1,000 tabs open, 0.1-0.25 s each, the whole worker paused: benchmarks/
bench_load.py's HTTP p99). Freezing them after each catalogue is installed
leaves the collector only what visitors create. Garbage frozen along with
them (a cycle that died just before) is collected at the next install.

What visitors create is collected less often than Python's default
(700, 10, 10): a worker allocates thousands of containers per request, most
dead before a collection at 50,000 finds them, so fewer survive into the old
generation, and its full collections (about 35-140 ms with 1,000 tabs open,
everything unfrozen walked) came 5 times in a crowd run against 20 (sum 237
against 802 ms), HTTP p99 at 100 connections 20-23 against 37-54 ms
(benchmarks/bench_load.py's crowd, 2026-12-01)."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


# gc.set_threshold(young, middle, old): allocations before a young collection,
# young collections per middle one, middle ones per full one (a full one also
# waits until a quarter of the old generation is new).
WORKER_THRESHOLDS = (50_000, 20, 100)


def freeze_long_lived() -> None:
    """Collect everything, then move what survived out of the collector's
    generations; what visitors create from then on is collected at
    WORKER_THRESHOLDS."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
    gc.set_threshold(*WORKER_THRESHOLDS)


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection while allocating many containers that form no cycle
    (a JSON page of 1,000 series: 20,000 dicts and lists). Every 700 of them set
    off a pass, and the older generations' passes walk everything the process
    holds: parsing a list page took 11 ms with the collector, 2.2 ms without.
    Keep the block synchronous (no await) so nothing else runs paused."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
