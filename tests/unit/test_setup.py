"""What `make run` installs on a fresh clone (issue 37): the site's packages,
not the tests' and benchmarks' (requirements-test.txt, tools/testing/, the
Observatory), which `make test` and `make bench` add. The site must still
find every package it imports (a newcomer's `make run` would fail on the
first import of a package only the tests install).
(benchmarks/bench_setup.py times the fresh `make run`.)"""

from __future__ import annotations

import ast
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

PROJECT_ROOT = Path(__file__).resolve().parents[2]


def _planned(target: str) -> str:
    """The commands `make TARGET` would run in a checkout that has nothing installed yet (-B)."""
    return subprocess.run(
        ["make", "--no-print-directory", "-n", "-B", target], cwd=PROJECT_ROOT, check=True, capture_output=True, text=True,
    ).stdout


def test_make_run_installs_the_site_and_not_the_test_tools() -> None:
    site = _planned("setup")
    assert "-r requirements.txt -c requirements.lock" in site
    assert "cd tools && npm ci" in site
    assert "cd tools/firebase && bun install" in site  # the Auth emulator: the sign-in of make run
    for test_only in ("requirements-test.txt", "tools/testing", "tools/observatory", "--test"):
        assert test_only not in site


def test_make_test_installs_the_test_tools_too() -> None:
    tests = _planned("setup-test")
    for needed in ("-r requirements.txt -r requirements-test.txt", "cd tools/testing && npm ci",
                   "cd tools/observatory && npm ci", "cd tools/firebase && bun install", "ensure_system_packages.sh --test"):
        assert needed in tests


def _pins(path: Path) -> set[str]:
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            names.add(canonicalize_name(Requirement(line).name))
    return names


def _closure(names: set[str], extras: dict[str, set[str]]) -> set[str]:
    """The distributions these install, by their installed metadata (markers evaluated here)."""
    seen: set[str] = set()
    todo = [(name, extras.get(name, set())) for name in names]
    while todo:
        name, wanted = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for text in metadata.requires(name) or []:
            requirement = Requirement(text)
            if requirement.marker is None or any(
                requirement.marker.evaluate({"extra": extra}) for extra in (wanted or {""})
            ):
                todo.append((canonicalize_name(requirement.name), set(requirement.extras)))
    return seen


def _imported_top_modules() -> set[str]:
    modules = set()
    for path in (PROJECT_ROOT / "manga_app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                modules.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules.add(node.module.split(".")[0])
    return modules - set(sys.stdlib_module_names) - {"manga_app", "__future__"}


def test_every_package_the_site_imports_comes_with_make_runs_requirements() -> None:
    site_requirements = PROJECT_ROOT / "requirements.txt"
    extras = {canonicalize_name(Requirement(line.split("#")[0]).name): set(Requirement(line.split("#")[0]).extras)
              for line in site_requirements.read_text(encoding="utf-8").splitlines() if line.split("#")[0].strip()}
    installed_by_run = _closure(_pins(site_requirements), extras)
    providers = metadata.packages_distributions()
    missing = {}
    for module in sorted(_imported_top_modules()):
        distributions = {canonicalize_name(name) for name in providers.get(module, [])}
        assert distributions, f"manga_app imports {module}, which no installed distribution provides"
        if not distributions & installed_by_run:
            missing[module] = sorted(distributions)
    assert not missing, f"imported by the site but installed only for the tests: {missing}"
