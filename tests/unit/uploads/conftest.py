"""The site's HTTP layer served for real (uvicorn on a loopback port) with a
migrated SQLite database, DATA_DIR in tmp_path, an operator named in
ADMIN_EMAILS, and the real Auth emulator for tokens."""

from __future__ import annotations

import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from starlette.responses import PlainTextResponse

from manga_app.accounts.settings import DEFAULT_EMULATOR_HOST, EMULATOR_ENV, get_firebase_config
from manga_app.core import db
from manga_app.web.middleware import site_http_layer
from tests.unit.accounts.emulator_accounts import google_token



@pytest.fixture
def operator_email() -> str:
    return f"operator-{uuid.uuid4().hex[:8]}@example.com"


@pytest.fixture
def upload_site(tmp_path: Path, clean_settings, configure, engine, auth_emulator, monkeypatch,
                operator_email) -> Iterator[str]:
    monkeypatch.setenv(EMULATOR_ENV, DEFAULT_EMULATOR_HOST)
    get_firebase_config.cache_clear()
    configure(DATA_DIR=tmp_path / "data", ADMIN_EMAILS=operator_email, UPLOAD_MAX_BYTES=200_000)
    monkeypatch.setattr(db, "_SHARED_ENGINE", engine)
    # A port of its own (bound here, handed to uvicorn): test processes run side by side (make test's xdist).
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(site_http_layer(PlainTextResponse("reflex")), log_level="warning",
                                           lifespan="off"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listening.close()
        get_firebase_config.cache_clear()


@pytest.fixture
def operator_token(upload_site, operator_email) -> str:
    return google_token(operator_email)
