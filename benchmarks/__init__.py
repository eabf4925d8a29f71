"""Benchmarks for the figures the issues name: `make bench` (= `python -m benchmarks`).

Each `bench_<name>.py` module has `run(results_dir: Path) -> dict` returning
{"figures": [{"figure", "value", "unit", "target", "pass"}, ...], ...details}.
Targets are ratios or limits checked within one run on this machine; tests
never assert timings. Results go to `benchmarks/results/<name>.json`, and one
line per figure is appended to `benchmarks/results/summary.md`.
"""
