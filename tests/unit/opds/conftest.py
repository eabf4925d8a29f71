"""A real demo catalogue (generated, then imported through the real CLI),
published and held by this process the way a backend holds it, with the
site's real HTTP layer in front: what an OPDS app talks to, without a
browser build."""

from __future__ import annotations

import io
import json
import os
import zipfile
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image
from starlette.responses import PlainTextResponse
from starlette.testclient import TestClient

from sqlmodel import Session, select

from manga_app.accounts.models import UserAccount
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
    subprocess.run([sys.executable, "-m", "manga_app.demo", str(data / "demo"), "--series", str(DEMO_SERIES)],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    write_messy_series(data / "demo")
    # Without AVIF copies (half the import's time): OPDS serves the JPEG and
    # WebP copies and the originals, never an AVIF derivative.
    subprocess.run([sys.executable, "-m", "manga_app.catalogue", "import", "--defer-avif", str(data / "demo")],
                   cwd=ROOT, env=env, check=True, capture_output=True)
    return data


MESSY_TITLE = "制御文字の作品"
MESSY_AUTHOR = "架空 作家/共著"  # a space and a slash: both must be escaped in every URL


def write_messy_series(root: Path) -> None:
    """A series as sloppy libraries hold it: control characters and
    non-characters in its folder name, series.json and ComicInfo.xml, an
    author whose name has a space and a slash."""
    folder = root / "端末\x1b[31m赤\x01"
    folder.mkdir()
    (folder / "series.json").write_text(json.dumps({"metadata": {
        "name": "制御\x07文字の\uffff作品", "description_text": "一行目\x00\n二行目\x1f",
    }}), encoding="utf-8")
    comicinfo = (f"<ComicInfo><Number>1</Number><Title>はじまり&#x85;</Title><Writer>{MESSY_AUTHOR}</Writer>"
                 "<Genre>ホラー&#x7F;</Genre><Tags>猫</Tags><Manga>YesAndRightToLeft</Manga></ComicInfo>")
    with zipfile.ZipFile(folder / "第1話.cbz", "w") as archive:
        archive.writestr("ComicInfo.xml", comicinfo)
        for index in range(2):
            page = io.BytesIO()
            Image.new("RGB", (60, 90), (index * 90, 30, 60)).save(page, format="PNG")
            archive.writestr(f"{index + 1:03}.png", page.getvalue())


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


@pytest.fixture
def accounts(site):
    """A session on the site's database; the accounts a test made go afterwards."""
    engine = db.make_engine(f"sqlite:///{site / 'opds.db'}")
    with Session(engine) as session:
        yield session
        for row in session.exec(select(UserAccount)).all():
            session.delete(row)
        session.commit()
    engine.dispose()
