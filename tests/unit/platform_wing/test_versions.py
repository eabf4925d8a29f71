"""The platform wing refuses to run on framework versions other than the
pinned ones (manga_app/platform/versions.py): the server started on another
version of uvicorn, or with React Router asked for at another version, stops
before serving anything, with a message that names the wing."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from manga_app.platform import versions

ROOT = Path(__file__).resolve().parents[3]


def _serve(tmp_path: Path, extra_env: dict[str, str], pythonpath: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, **extra_env}
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(pythonpath), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "manga_app.serve", "--port", "1"],  # port 1: nothing may ever listen
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )


def _other_uvicorn(folder: Path) -> Path:
    """An installed uvicorn of another version, found first on the path (as a stray install would be)."""
    info = folder / "uvicorn-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: uvicorn\nVersion: 0.1.0\n", encoding="utf-8")
    return folder


def test_the_pinned_versions_are_the_installed_ones():
    assert versions.problems() == []


def test_the_server_refuses_another_uvicorn_and_names_the_wing(tmp_path):
    run = _serve(tmp_path, {}, _other_uvicorn(tmp_path / "site"))
    assert run.returncode != 0
    assert "manga_app/platform/" in run.stderr and "uvicorn 0.1.0 (pinned: 0.54.0" in run.stderr
    assert "is running at" not in run.stdout


def test_the_server_refuses_another_react_router(tmp_path):
    run = _serve(tmp_path, {"REACT_ROUTER_VERSION": "7.0.0"})
    assert run.returncode != 0
    assert "manga_app/platform/" in run.stderr and "react-router 7.0.0 (pinned: 8.4.0" in run.stderr


def test_the_app_module_refuses_too(tmp_path):
    # What every worker and `reflex export` import.
    run = subprocess.run(
        [sys.executable, "-c", "import manga_app.manga_app"],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(_other_uvicorn(tmp_path / "site"))},
        capture_output=True, text=True, timeout=120,
    )
    assert run.returncode != 0 and "FrameworkVersionError" in run.stderr and "manga_app/platform/" in run.stderr


def test_a_build_with_another_react_router_is_refused(tmp_path):
    package = tmp_path / "node_modules" / "react-router"
    package.mkdir(parents=True)
    (package / "package.json").write_text('{"name": "react-router", "version": "8.3.0"}', encoding="utf-8")
    found = versions.problems(tmp_path)
    assert any(line.startswith("react-router 8.3.0 (pinned: 8.4.0") and str(tmp_path) in line for line in found)
    # A library missing from the build is named too.
    assert any(line.startswith("@react-router/node is not installed") for line in found)
    with pytest.raises(versions.FrameworkVersionError, match="manga_app/platform/"):
        versions.check(tmp_path)


@pytest.mark.parametrize(
    ("line", "pins"),
    [
        pytest.param("uvicorn==0.54.0", {"uvicorn": "0.54.0"}, id="plain"),
        pytest.param("python_engineio==4.15.1 ; python_version >= '3.9'", {"python-engineio": "4.15.1"}, id="marker"),
        pytest.param("Reflex-Base==0.10.1 \\", {"reflex-base": "0.10.1"}, id="continued-hashes"),
        pytest.param("# uvicorn==0.1", {}, id="comment"),
        pytest.param("uvicorn>=0.54", {}, id="not-exact"),
    ],
)
def test_the_lock_file_is_read_by_exact_pins(line, pins):
    assert versions.pinned_python(line) == pins
