"""Firebase settings: the local default is the emulator with a demo project;
emulator mode never meets a real project."""

from __future__ import annotations

import logging
import os

import pytest

from manga_app.auth import settings as firebase_settings
from manga_app.auth.settings import EMULATOR_ENV, FirebaseConfigError, FirebaseSettings, resolve


def configured(**values) -> FirebaseSettings:
    return FirebaseSettings(_env_file=None, **{"firebase_auth_emulator_host": None, **values})


@pytest.mark.parametrize(
    ("values", "project", "emulator_host"),
    [
        ({}, "demo-manga-hiroba", "127.0.0.1:9099"),
        ({"firebase_project_id": "demo-x", "firebase_auth_emulator_host": "127.0.0.1:9199"}, "demo-x", "127.0.0.1:9199"),
        ({"firebase_project_id": "manga-prod", "firebase_api_key": "k"}, "manga-prod", ""),
        ({"firebase_project_id": "manga-prod", "firebase_api_key": "k", "firebase_auth_emulator_host": ""}, "manga-prod", ""),
    ],
)
def test_accepted_settings(values, project, emulator_host):
    config = resolve(configured(**values))
    assert (config.project_id, config.emulator_host) == (project, emulator_host)
    assert config.web_config()["projectId"] == project and config.web_config()["apiKey"]


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"firebase_project_id": "manga-prod", "firebase_api_key": "k", "firebase_auth_emulator_host": "127.0.0.1:9099"}, "forged"),
        ({"firebase_project_id": "demo-x", "firebase_auth_emulator_host": ""}, "only exists in the Auth emulator"),
        ({"firebase_project_id": "manga-prod"}, "FIREBASE_API_KEY"),
        ({"firebase_project_id": "  "}, "empty"),
        ({"firebase_auth_emulator_host": "http://127.0.0.1:9099"}, "without a scheme"),
    ],
)
def test_refused_settings(values, message):
    with pytest.raises(FirebaseConfigError, match=message):
        resolve(configured(**values))


def test_the_environment_variable_with_a_real_project_is_refused(monkeypatch):
    monkeypatch.setenv("FIREBASE_PROJECT_ID", "manga-prod")
    monkeypatch.setenv("FIREBASE_API_KEY", "k")
    monkeypatch.setenv(EMULATOR_ENV, "127.0.0.1:9099")
    with pytest.raises(FirebaseConfigError):
        resolve(FirebaseSettings(_env_file=None))


def test_startup_in_emulator_mode_warns_and_points_firebase_admin_at_the_emulator(monkeypatch, caplog):
    monkeypatch.delenv(EMULATOR_ENV, raising=False)
    monkeypatch.setattr(firebase_settings, "get_firebase_config", lambda: resolve(configured()))
    with caplog.at_level(logging.WARNING):
        config = firebase_settings.check_firebase_at_startup()
    assert config.emulated and os.environ[EMULATOR_ENV] == "127.0.0.1:9099"
    assert "EMULATOR mode" in caplog.text
