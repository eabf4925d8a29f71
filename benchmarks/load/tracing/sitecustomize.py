"""Loaded by every Python process started with this folder on PYTHONPATH
(benchmarks/memory_probe.py --trace): in one whose environment has
MEMORY_PROBE_TRACE=<folder>, the first SIGUSR1 starts tracemalloc, each
later one writes a snapshot of what is still allocated into that folder."""

import os

_folder = os.environ.get("MEMORY_PROBE_TRACE")
if _folder:
    import gc
    import signal
    import tracemalloc

    _taken = [0]

    def _on_usr1(signum, frame):
        if not tracemalloc.is_tracing():
            tracemalloc.start(int(os.environ.get("MEMORY_PROBE_FRAMES", "8")))
            return
        _taken[0] += 1
        gc.collect()
        name = os.path.join(_folder, f"{os.getpid()}-{_taken[0]}")
        tracemalloc.take_snapshot().dump(name + ".snapshot")
        open(name + ".done", "w").close()

    signal.signal(signal.SIGUSR1, _on_usr1)
