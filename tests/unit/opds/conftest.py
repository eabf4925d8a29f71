"""A real demo catalogue (generated, then imported through the real CLI),
published and held by this process the way a backend holds it, with the
site's real HTTP layer in front: what an OPDS app talks to, without a
browser build."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from starlette.responses import PlainTextResponse
from starlette.testclient import TestClient

from manga_app.core import db
from manga_app.read_models import held
from manga_app.core.config import get_settings
from manga_app.read_models import search_index
from manga_app.web.middleware import site_http_layer

ROOT = Path(__file__).resolve().parents[3]
DEMO_SERIES = 4


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="package")
def demo_data(tmp_path_factory) -> Path:
    data = tmp_path_factory.mktemp("opds-data")
    env = {**os.environ, "DATA_DIR": str(data), "REFLEX_DB_URL": f"sqlite:///{data / 'opds.db'}"}
    for command in (["manga_app.demo", str(data / "demo"), "--series", str(DEMO_SERIES)],
                    ["manga_app.catalogue", "import", str(data / "demo")]):
        subprocess.run([sys.executable, "-m", *command], cwd=ROOT, env=env, check=True, capture_output=True)
    return data


@pytest.fixture(scope="package")
def site(demo_data: Path):
    """This process configured as the demo's backend; the published lists
    served over HTTP as the catalogue URL (the held catalogue loads them)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(demo_data / "published")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    saved = {name: os.environ.get(name) for name in ("DATA_DIR", "REFLEX_DB_URL", "CATALOGUE_URL")}
    os.environ.update(DATA_DIR=str(demo_data), REFLEX_DB_URL=f"sqlite:///{demo_data / 'opds.db'}",
                      CATALOGUE_URL=f"http://127.0.0.1:{server.server_address[1]}")
    get_settings.cache_clear()
    held._HELD, db._SHARED_ENGINE = None, None
    search_index._current = search_index._building = search_index._first = None
    try:
        yield demo_data
    finally:
        server.shutdown()
        server.server_close()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        get_settings.cache_clear()
        held._HELD, search_index._current, search_index._building = None, None, None
        if db._SHARED_ENGINE is not None:
            db._SHARED_ENGINE.dispose()
        db._SHARED_ENGINE = None


@pytest.fixture(scope="package")
def client(site) -> TestClient:
    # Not entered: the stand-in for Reflex has no lifespan to run.
    return TestClient(site_http_layer(PlainTextResponse("reflex")), base_url="http://127.0.0.1")
