"""Firebase settings: the local default is the emulator with a demo project;
emulator mode never meets a real project."""

from __future__ import annotations

import logging
import os

import pytest

from manga_app.accounts import settings as firebase_settings
from manga_app.accounts.settings import EMULATOR_ENV, FirebaseConfigError, FirebaseSettings, resolve


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


# --- emulator mode is for this machine only --------------------------------


@pytest.fixture
def site(clean_settings, monkeypatch):
    """The site's own settings through the environment, as an operator sets them."""
    for name in ("UNSAFE_ALLOW_AUTH_EMULATOR", "FIREBASE_PROJECT_ID", EMULATOR_ENV):
        monkeypatch.delenv(name, raising=False)
    firebase_settings.get_firebase_config.cache_clear()
    yield monkeypatch
    firebase_settings.get_firebase_config.cache_clear()


@pytest.mark.parametrize(
    ("environment", "named"),
    [
        ({"PRODUCTION_HOST": "manga.example"}, "PRODUCTION_HOST=manga.example"),
        ({"SITE_ORIGIN": "https://manga.example"}, "SITE_ORIGIN=https://manga.example"),
        ({"SITE_ORIGIN": "http://192.168.1.20:3000"}, "SITE_ORIGIN=http://192.168.1.20:3000"),
    ],
)
def test_emulator_mode_refuses_to_start_on_a_site_configured_for_the_public(site, environment, named):
    for name, value in environment.items():
        site.setenv(name, value)
    with pytest.raises(FirebaseConfigError) as refused:
        firebase_settings.check_firebase_at_startup()
    message = str(refused.value)
    assert named in message and EMULATOR_ENV in message and "UNSAFE_ALLOW_AUTH_EMULATOR=1" in message


@pytest.mark.parametrize("origin", ["", "http://localhost:3000", "http://127.0.0.1:3123", "http://[::1]:3000"])
def test_emulator_mode_starts_on_the_local_defaults(site, origin):
    site.setenv("SITE_ORIGIN", origin)
    assert firebase_settings.check_firebase_at_startup().emulated


def test_the_unsafe_opt_in_starts_with_a_warning_at_every_start(site, caplog):
    site.setenv("PRODUCTION_HOST", "manga.example")
    site.setenv("UNSAFE_ALLOW_AUTH_EMULATOR", "1")
    with caplog.at_level(logging.WARNING):
        firebase_settings.check_firebase_at_startup()
        firebase_settings.check_firebase_at_startup()
    warnings = [record for record in caplog.records if "UNSAFE_ALLOW_AUTH_EMULATOR=1" in record.getMessage()]
    assert len(warnings) == 2 and "PRODUCTION_HOST=manga.example" in warnings[0].getMessage()


def test_a_real_project_starts_on_the_production_host(site):
    site.setenv("PRODUCTION_HOST", "manga.example")
    site.setenv("SITE_ORIGIN", "https://manga.example")
    site.setenv("FIREBASE_PROJECT_ID", "manga-prod")
    site.setenv("FIREBASE_API_KEY", "k")
    assert not firebase_settings.check_firebase_at_startup().emulated
