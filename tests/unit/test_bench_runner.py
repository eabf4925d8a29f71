"""`make bench` fails when a figure misses its target, not only when a benchmark crashes."""

from __future__ import annotations

import sys
import types
from pathlib import Path

import pytest

import benchmarks.__main__ as runner


@pytest.fixture
def bench(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """Registers a benchmark whose one figure passed, failed or has no target (None)."""
    names: list[str] = []
    monkeypatch.setattr(runner, "RESULTS_DIR", tmp_path)
    monkeypatch.setattr(runner, "available", lambda: sorted(names))

    def add(name: str, passed: bool | None) -> None:
        module = types.ModuleType(f"benchmarks.bench_{name}")
        module.__doc__ = f"{name}: one figure."
        module.run = lambda results: {"figures": [{"figure": "x", "value": 1.0, "target": "< 2", "pass": passed}]}
        monkeypatch.setitem(sys.modules, module.__name__, module)
        names.append(name)

    return add


def test_a_missed_target_makes_the_run_fail(bench, capsys: pytest.CaptureFixture[str]) -> None:
    bench("good", True)
    bench("bad", False)
    assert runner.main([]) == 1
    assert "FAIL" in capsys.readouterr().out


def test_met_and_untargeted_figures_pass(bench) -> None:
    bench("good", True)
    bench("informative", None)
    assert runner.main([]) == 0
