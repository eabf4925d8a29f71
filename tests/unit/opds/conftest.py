"""A real demo catalogue (generated, then imported through the real CLI),
published and held by this process the way a backend holds it, with the
site's real HTTP layer in front: what an OPDS app talks to, without a
browser build."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from starlette.responses import PlainTextResponse
from starlette.testclient import TestClient

from manga_app.core import db
from manga_app.read_models import held
from manga_app.core.config import get_settings
from manga_app.search import held_index
from manga_app.web.middleware import site_http_layer
from tests.unit.served import serving

ROOT = Path(__file__).resolve().parents[3]
DEMO_SERIES = 4


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
    with serving(demo_data / "published") as base_url, pytest.MonkeyPatch.context() as patch:
        patch.setenv("DATA_DIR", str(demo_data))
        patch.setenv("REFLEX_DB_URL", f"sqlite:///{demo_data / 'opds.db'}")
        patch.setenv("CATALOGUE_URL", base_url)
        get_settings.cache_clear()
        held._HELD, db._SHARED_ENGINE = None, None
        held_index._current = held_index._building = held_index._first = None
        try:
            yield demo_data
        finally:
            get_settings.cache_clear()
            held._HELD, held_index._current, held_index._building = None, None, None
            if db._SHARED_ENGINE is not None:
                db._SHARED_ENGINE.dispose()
            db._SHARED_ENGINE = None


@pytest.fixture(scope="package")
def client(site) -> TestClient:
    # Not entered: the stand-in for Reflex has no lifespan to run.
    return TestClient(site_http_layer(PlainTextResponse("reflex")), base_url="http://127.0.0.1")
