"""`python -m benchmarks [NAME ...]`: run every benchmarks/bench_*.py, or the ones named.

Prints a short table, writes benchmarks/results/<name>.json and appends one
line per figure to benchmarks/results/summary.md. Exit status: 1 when a
benchmark crashed or a figure missed its target (the FAIL lines), 2 for an
unknown benchmark name.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import platform
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent
RESULTS_DIR = HERE / "results"
SUMMARY_HEADER = "| date (UTC) | benchmark | figure | value | target | result |\n|---|---|---|---|---|---|\n"


def available() -> list[str]:
    return sorted(path.stem.removeprefix("bench_") for path in HERE.glob("bench_*.py"))


def _format_value(figure: dict) -> str:
    value = figure.get("value")
    if isinstance(value, float):
        text = f"{value:.3g}" if abs(value) < 100 else f"{value:,.0f}"
    else:
        text = str(value)
    unit = figure.get("unit")
    return f"{text} {unit}" if unit else text


def _verdict(figure: dict) -> str:
    passed = figure.get("pass")
    return "—" if passed is None else ("PASS" if passed else "FAIL")


def main(argv: list[str] | None = None) -> int:
    names = available()
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="NAME", help=f"some of: {', '.join(names)}")
    args = parser.parse_args(argv)
    chosen = list(dict.fromkeys(args.names)) or names
    unknown = [name for name in chosen if name not in names]
    if unknown:
        known = ", ".join(names)
        print(f"error: unknown benchmark(s): {', '.join(unknown)}; known: {known}", file=sys.stderr)
        return 2
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    summary = RESULTS_DIR / "summary.md"
    if not summary.exists():
        summary.write_text(SUMMARY_HEADER, encoding="utf-8")
    rows: list[tuple[str, dict]] = []
    failed = crashed = False
    modules = {name: importlib.import_module(f"benchmarks.bench_{name}") for name in chosen}
    # A benchmark may reuse what another one built (RUN_AFTER names it): run that one first.
    chosen.sort(key=lambda name: any(other in modules for other in getattr(modules[name], "RUN_AFTER", ())))
    for name in chosen:
        module = modules[name]
        print(f"== {name}: {(module.__doc__ or '').strip().splitlines()[0]}", flush=True)
        started = time.perf_counter()
        load_before = _loadavg()
        try:
            result = module.run(RESULTS_DIR)
        except Exception as exc:  # noqa: BLE001 - one broken benchmark must not hide the others
            import traceback

            traceback.print_exc()
            result = {"figures": [{"figure": "ran", "value": f"{type(exc).__name__}: {exc}",
                                   "target": "no error", "pass": False}]}
            crashed = True
        elapsed = time.perf_counter() - started
        gc.collect()
        result = {
            "benchmark": name,
            "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "machine": {"python": platform.python_version(), "platform": platform.platform(),
                        "cpus": _cpus(),
                        # other work on the machine makes timings wander: 1-minute load averages
                        "load_average": {"before": load_before, "after": _loadavg()}},
            "duration_s": round(elapsed, 1),
            **result,
        }
        (RESULTS_DIR / f"{name}.json").write_text(
            json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
        )
        with summary.open("a", encoding="utf-8") as handle:
            for figure in result["figures"]:
                handle.write(
                    f"| {result['date']} | {name} | {figure['figure']} | {_format_value(figure)} "
                    f"| {figure.get('target') or '—'} | {_verdict(figure)} |\n"
                )
        for figure in result["figures"]:
            rows.append((name, figure))
            failed |= figure.get("pass") is False
        print(f"   done in {elapsed:.0f} s", flush=True)
    width = max((len(f["figure"]) for _, f in rows), default=10)
    print()
    print(f"{'benchmark':<10} {'figure':<{width}} {'value':>18} {'target':>12}  result")
    for name, figure in rows:
        print(f"{name:<10} {figure['figure']:<{width}} {_format_value(figure):>18} "
              f"{figure.get('target') or '—':>12}  {_verdict(figure)}")
    print(f"\nresults: {RESULTS_DIR}/<name>.json, history: {summary}")
    return 1 if crashed or failed else 0


def _loadavg() -> float | None:
    import os

    try:
        return round(os.getloadavg()[0], 2)
    except OSError:
        return None


def _cpus() -> int:
    import os

    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _exit_on_signal(signum: int, _frame: object) -> None:
    """SIGTERM or SIGHUP (a `kill`, a closed terminal) ends the run as Ctrl-C does: by an exception, so
    every benchmark's `finally` stops the servers it started (the default action left them serving)."""
    raise SystemExit(128 + signum)


if __name__ == "__main__":
    import signal

    for _signal in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(_signal, _exit_on_signal)
    sys.exit(main())
