"""HTTP throughput per page kind with wrk (Debian's `wrk`: C, so the load
generator takes little of the 2 cores it shares with the site)."""

from __future__ import annotations

import re
import shutil
import subprocess

_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def wrk_path() -> str:
    found = shutil.which("wrk")
    if found is None:
        raise RuntimeError("wrk is not installed: run `make bench` (or apt-get install wrk)")
    return found


def measure(url: str, *, connections: int, seconds: int) -> dict:
    """req/s, p50 and p99 (ms), non-2xx/3xx responses and socket errors for one URL."""
    done = subprocess.run(
        [wrk_path(), "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-H", "Accept-Encoding: gzip", url],
        capture_output=True, text=True, check=True, timeout=seconds + 60,
    )
    out = done.stdout
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    bad = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {
        "req_per_s": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)),
        "p50_ms": _latency(out, "50%"),
        "p99_ms": _latency(out, "99%"),
        "errors": errors + (int(bad.group(1)) if bad else 0),
    }


def _latency(out: str, percentile: str) -> float:
    value, unit = re.search(rf"^\s+{percentile}\s+([\d.]+)(us|ms|s|m)\s*$", out, re.M).groups()
    return round(float(value) * _UNITS[unit], 2)
