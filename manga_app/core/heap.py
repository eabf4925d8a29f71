"""The worker's long-lived objects kept out of the cyclic collector's way.

The held catalogue, the app's compiled pages and the imported modules live
as long as the worker; every full collection would walk them again (with
1,000 tabs open, 0.1-0.25 s each, the whole worker paused: benchmarks/
bench_load.py's HTTP p99). Freezing them after each catalogue is installed
leaves the collector only what visitors create. Garbage frozen along with
them (a cycle that died just before) is collected at the next install."""

from __future__ import annotations

import gc


def freeze_long_lived() -> None:
    """Collect everything, then move what survived out of the collector's generations."""
    gc.unfreeze()
    gc.collect()
    gc.freeze()
