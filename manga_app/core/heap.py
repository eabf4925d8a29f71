"""The worker's long-lived objects kept out of the cyclic collector's way.

The held catalogue, the app's compiled pages and the imported modules live
as long as the worker; every full collection would walk them again (with
1,000 tabs open, 0.1-0.25 s each, the whole worker paused: benchmarks/
bench_load.py's HTTP p99). Freezing them after each catalogue is installed
leaves the collector only what visitors create. Garbage frozen along with
them (a cycle that died just before) is collected at the next install."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


def freeze_long_lived() -> None:
    """Collect everything, then move what survived out of the collector's generations."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()


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
