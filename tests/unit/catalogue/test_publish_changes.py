"""Publishing what changed: the database logs changed series (triggers), and a
publish after any kind of change gives exactly what publishing everything
from scratch gives, while touching only what changed."""

from __future__ import annotations

import gzip
import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue import publisher
from manga_app.core.db import make_engine
from manga_app.catalogue.models import CatalogueChange, Chapter, Genre, Page, Series
from manga_app.catalogue.publisher import MANIFEST_INDEX, publish_catalogue
from manga_app.core.crypto import decrypt_text

from tests.postgres import scratch_database

from .test_publisher import BASE, _add_page, _add_series

PAGE_SIZE = 5


@pytest.fixture(autouse=True)
def _small_pages(monkeypatch):
    monkeypatch.setattr(publisher, "PAGE_SIZE", PAGE_SIZE)


def published(root: Path, key: str) -> dict:
    """Everything a client can read from a published folder: lists, genres,
    decrypted manifests (gzip twins must match their files)."""
    found = {}
    for path in sorted(root.rglob("*.json")):
        if path.name in (MANIFEST_INDEX, ".publish.json") or path.name.startswith(".tmp-"):
            continue
        value = json.loads(path.read_bytes())
        if path.parent.parent.name == "manifests":
            value = json.loads(decrypt_text(value["data"], key, value["iv"]))
        twin = path.with_name(path.name + ".gz")
        if twin.exists():
            assert json.loads(gzip.decompress(twin.read_bytes())) == value, twin
        found[str(path.relative_to(root))] = value
    return found


def _catalogue(session: Session) -> None:
    for n in range(1, 3 * PAGE_SIZE + 3):  # four pages
        _add_series(session, n, genres=["アクション", "恋愛"][: 1 + n % 2], chapters=(100, 200))
    for chapter in session.exec(select(Chapter)).all():
        _add_page(session, chapter.id, 0, f"{chapter.id:064x}")


def _series(session: Session, n: int) -> Series:
    return session.exec(select(Series).where(Series.slug == f"series-{n}")).one()


def _chapter(session: Session, n: int, number: int = 100) -> Chapter:
    return session.exec(select(Chapter).where(Chapter.series_id == _series(session, n).id,
                                              Chapter.number_hundredths == number)).one()


def _views(session, n):
    _series(session, n).views = 9999


def _page_added(session, n):
    _add_page(session, _chapter(session, n).id, 1, "e" * 64)


def _page_changed(session, n):
    session.exec(select(Page).where(Page.chapter_id == _chapter(session, n).id)).one().media_key = "d" * 64


def _chapter_added(session, n):
    session.add(Chapter(series_id=_series(session, n).id, number_hundredths=250, published_at=datetime.now(UTC)))


def _chapter_removed(session, n):
    session.delete(_chapter(session, n, 200))


def _series_removed(session, n):
    session.delete(_series(session, n))


def _series_unlisted(session, n):  # its chapters go: it is no longer listed
    for chapter in session.exec(select(Chapter).where(Chapter.series_id == _series(session, n).id)):
        session.delete(chapter)


def _renamed(session, n):
    _series(session, n).slug = f"renamed-{n}"


def _genre_renamed(session, _n):
    session.exec(select(Genre).where(Genre.name == "恋愛")).one().name = "ラブコメ"


def _spread(session, n):
    _chapter(session, n).spread_offset = True


def _new_series(session, n):
    _add_series(session, 100 + n, genres=["SF"])


CHANGES = [  # (what changes, series number it changes)
    (_views, 7), (_page_added, 2), (_page_changed, 12), (_chapter_added, 17), (_chapter_removed, 3),
    (_series_removed, 6), (_series_unlisted, 11), (_renamed, 16), (_genre_renamed, 0), (_spread, 9),
    (_new_series, 1), (_new_series, 2), (_series_removed, 1),
]


def _publish(engine, key: str, out: Path):
    with Session(engine) as session:
        return publish_catalogue(session=session, out_dir=out, content_key=key, media_base_url=BASE)


def _apply(engine, change, *args) -> None:
    with Session(engine) as session:
        change(session, *args)
        session.commit()


@pytest.mark.parametrize(("change", "n"), CHANGES, ids=[f"{c.__name__[1:]}-{n}" for c, n in CHANGES])
def test_a_publish_after_a_change_gives_what_a_publish_from_scratch_gives(tmp_path, engine, content_key, change, n):
    def publish(out: Path):
        return _publish(engine, content_key, out)

    # Given a catalogue of four list pages, published
    _apply(engine, _catalogue)
    publish(tmp_path / "site")
    # When it changes and is published again
    _apply(engine, change, n)
    again = publish(tmp_path / "site")
    # Then the folder holds what a publish into an empty folder writes
    fresh = publish(tmp_path / "fresh")
    assert published(tmp_path / "site", content_key) == published(tmp_path / "fresh", content_key)
    assert (again.series, again.pages, again.manifests, again.genres) == (
        fresh.series, fresh.pages, fresh.manifests, fresh.genres)
    # built on the last publish: only the changed series (the genre's series for a renamed genre)
    assert fresh.changed is None and again.changed == (9 if change is _genre_renamed else 1)
    # and the publish after it, with nothing changed, writes nothing
    assert publish(tmp_path / "site").changed == 0


def test_a_publish_into_another_folder_makes_the_next_one_here_publish_everything(tmp_path, engine, content_key):
    def publish(out: Path):
        return _publish(engine, content_key, out)

    _apply(engine, _catalogue)
    publish(tmp_path / "a")
    publish(tmp_path / "b")
    _apply(engine, _views, 4)
    assert publish(tmp_path / "b").changed == 1  # b took the change from the log
    # a never saw that change: it must not trust the log
    assert publish(tmp_path / "a").changed is None
    assert published(tmp_path / "a", content_key) == published(tmp_path / "b", content_key)


def test_the_log_names_each_waiting_series_once_and_ignores_view_counts(engine):
    with Session(engine) as session:
        _add_series(session, 1, chapters=(100,))
        session.execute(sa.delete(CatalogueChange))
        session.commit()
        series = _series(session, 1)
        series_id = series.id
        series.title = "新しい題"
        session.commit()
        series.title = "もう一度"
        session.commit()
        session.execute(sa.update(Chapter).values(views=Chapter.views + 1))
        session.commit()
        logged = session.exec(select(CatalogueChange.series_id, CatalogueChange.gone_slug)).all()
    assert logged == [(series_id, None)]


def test_on_postgresql_every_change_in_turn_publishes_as_from_scratch(tmp_path, content_key):
    with scratch_database("publish_changes") as url:
        engine = make_engine(url)
        try:
            _apply(engine, _catalogue)
            _publish(engine, content_key, tmp_path / "site")
            for step, (change, n) in enumerate(CHANGES):
                _apply(engine, change, n)
                again = _publish(engine, content_key, tmp_path / "site")
                _publish(engine, content_key, tmp_path / f"fresh-{step}")
                assert again.changed is not None and again.changed > 0, change.__name__
                assert published(tmp_path / "site", content_key) == published(tmp_path / f"fresh-{step}", content_key), change.__name__
        finally:
            engine.dispose()
