"""The real Auth emulator for the whole unit session, emulator-mode config,
and account databases on real SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from firebase_admin import auth as admin_auth
from firebase_admin import credentials
from sqlmodel import Session

from manga_app.accounts.settings import (
    DEFAULT_EMULATOR_HOST,
    EMULATOR_ENV,
    FirebaseSettings,
    get_firebase_config,
    resolve,
)
from manga_app.accounts.verify import admin_app
from manga_app.core.db import make_engine
from tests.unit.accounts.accounts_db import postgres_url, sqlite_url
from tests.unit.accounts.signed_tokens import CERT_URL_PREFIX, PROJECT, CertificateAdapter, Signer


@pytest.fixture
def emulated_config(auth_emulator, monkeypatch):
    monkeypatch.setenv(EMULATOR_ENV, DEFAULT_EMULATOR_HOST)
    return resolve(FirebaseSettings(_env_file=None, firebase_project_id="demo-manga-hiroba", firebase_auth_emulator_host=None))


@pytest.fixture(scope="session")
def google_signer() -> Signer:
    return Signer.create("google-key-1")


@pytest.fixture
def real_config(google_signer, monkeypatch):
    """A real (non-demo) project whose tokens firebase-admin checks by
    signature; Google's certificate URL answers with our signer's."""
    monkeypatch.delenv(EMULATOR_ENV, raising=False)
    config = resolve(
        # Revocation needs Google's account API, which no test can reach.
        FirebaseSettings(_env_file=None, firebase_project_id=PROJECT, firebase_api_key="test-key", firebase_auth_emulator_host=None,
                         firebase_check_revoked=False)
    )
    assert not config.emulated
    service_account = credentials.Certificate(
        {
            "type": "service_account",
            "project_id": PROJECT,
            "private_key_id": "sa-key",
            "private_key": google_signer.private_pem.decode(),
            "client_email": f"admin@{PROJECT}.iam.gserviceaccount.com",
            "token_uri": "https://oauth2.googleapis.com/token",
        }
    )
    client = admin_auth._get_client(admin_app(config, service_account))
    client._token_verifier.request.session.mount(CERT_URL_PREFIX, CertificateAdapter({google_signer.key_id: google_signer.cert_pem}))
    return config


@pytest.fixture
def real_project(real_config, monkeypatch):
    """The site configured for that project through its environment, as in production."""
    monkeypatch.setenv("FIREBASE_PROJECT_ID", PROJECT)
    monkeypatch.setenv("FIREBASE_API_KEY", "test-key")
    monkeypatch.setenv("FIREBASE_CHECK_REVOKED", "0")
    get_firebase_config.cache_clear()
    assert get_firebase_config() == real_config
    yield real_config
    get_firebase_config.cache_clear()


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db_url(request, tmp_path_factory):
    if request.param == "sqlite":
        yield sqlite_url(tmp_path_factory.mktemp("accounts"))
        return
    yield from postgres_url()


@pytest.fixture
def session(db_url):
    """A session whose work is rolled back after the test."""
    engine = make_engine(db_url)
    with Session(engine) as session:
        yield session
        session.rollback()
    engine.dispose()
