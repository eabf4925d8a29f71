"""The real Auth emulator for the whole unit session, and emulator-mode config."""

from __future__ import annotations

import pytest

from manga_app.auth import emulator
from manga_app.auth.settings import DEFAULT_EMULATOR_HOST, EMULATOR_ENV, FirebaseSettings, resolve


@pytest.fixture(scope="session")
def auth_emulator(tmp_path_factory) -> str:
    with emulator.running_emulator(log_path=tmp_path_factory.mktemp("emulator") / "emulator.log") as host:
        yield host


@pytest.fixture
def emulated_config(auth_emulator, monkeypatch):
    monkeypatch.setenv(EMULATOR_ENV, DEFAULT_EMULATOR_HOST)
    return resolve(FirebaseSettings(_env_file=None, firebase_project_id="demo-manga-hiroba", firebase_auth_emulator_host=None))
