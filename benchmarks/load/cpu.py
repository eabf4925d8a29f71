"""CPU seconds spent by the parts of a served site during a run, from
/proc/<pid>/stat (utime + stime): the machine is shared, so wall-clock
throughput is noisy while the CPU each event costs is not.

A part is a named list of processes: the server's workers, redis-server,
the PostgreSQL backends of the site's database, the load generator itself."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process (all its threads); 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    # After the command: state is field 3, utime 14 and stime 15 (1-based).
    return (int(fields[11]) + int(fields[12])) / TICKS


def pids_named(name: str) -> list[int]:
    """Processes whose command name (/proc/<pid>/comm) is `name`."""
    found = []
    for proc in Path("/proc").iterdir():
        if proc.name.isdigit():
            try:
                if (proc / "comm").read_text().strip() == name:
                    found.append(int(proc.name))
            except OSError:
                continue
    return found


class Meter:
    """CPU seconds per part between `start()` and `stop()`. Each part is a
    function returning its pids, asked at both ends: a process present at
    only one end (a PostgreSQL backend opened during the run) counts from 0."""

    def __init__(self, parts: dict[str, Callable[[], list[int]]]) -> None:
        self.parts = parts
        self._before: dict[str, dict[int, float]] = {}

    def _read(self) -> dict[str, dict[int, float]]:
        return {name: {pid: cpu_seconds(pid) for pid in pids()} for name, pids in self.parts.items()}

    def start(self) -> None:
        self._before = self._read()

    def stop(self) -> dict[str, float]:
        after = self._read()
        return {name: round(sum(seconds - self._before[name].get(pid, 0.0) for pid, seconds in found.items()), 3)
                for name, found in after.items()}


def per_event(spent: dict[str, float], events: int) -> dict[str, float]:
    """Milliseconds of CPU per event, per part and in total."""
    found = {name: round(seconds * 1000 / max(events, 1), 3) for name, seconds in spent.items()}
    return found | {"total": round(sum(found.values()), 3)}


def projected_events_per_s(ms_per_event: dict[str, float], processes: dict[str, int], cores: int = 2) -> float:
    """Events per second the parts could serve on `cores` otherwise idle
    cores, were they CPU-bound: all parts together fill the cores, and a part
    of `processes[name]` processes (one Python process or redis-server uses
    one core at most) cannot go past that many cores. An upper bound that
    compares configurations without the machine's other load."""
    bounds = [cores * 1000 / max(ms_per_event["total"], 1e-9)]
    bounds += [min(count, cores) * 1000 / ms_per_event[name] for name, count in processes.items()
               if ms_per_event.get(name)]
    return round(min(bounds), 1)
