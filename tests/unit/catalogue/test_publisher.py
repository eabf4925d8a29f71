"""publish_catalogue: the JSON contract, encrypted manifests and removal of stale files."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, select

from manga_app.catalogue.importer import import_source
from manga_app.catalogue.models import Chapter, Genre, Page, Series, SeriesGenre
from manga_app.catalogue.publisher import PAGE_SIZE, publish_catalogue
from manga_app.crypto import decrypt_text

from .builders import distinct_pages, image_bytes, write_cbz

ISO_Z = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
BASE = "https://cdn.example.test/media/"
T0 = datetime(2024, 1, 1, tzinfo=UTC)


def _add_series(session: Session, n: int, *, genres=(), chapters=(100,), updated=None) -> Series:
    series = Series(
        slug=f"series-{n}",
        title=f"作品{n}",
        title_key=f"作品{n}",
        alt_titles=[f"Alias {n}"],
        readings=[
            {
                "text": f"作品{n}",
                "hiragana": "さくひん",
                "katakana": "サクヒン",
                "romaji": "sakuhin",
            }
        ],
        cover_key=f"{n:064x}",
        updated_at=updated or T0 + timedelta(minutes=n),
        views=n,
    )
    session.add(series)
    session.flush()
    for number in chapters:
        session.add(Chapter(series_id=series.id, number_hundredths=number, published_at=T0))
    for name in genres:
        genre = session.exec(select(Genre).where(Genre.name == name)).first() or Genre(name=name)
        session.add(genre)
        session.flush()
        session.add(SeriesGenre(series_id=series.id, genre_id=genre.id))
    session.commit()
    return series


def _read(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_list_pages_follow_the_contract_newest_first_with_a_fixed_page_size(
    tmp_path, session, content_key
):
    # Given more series than fit on two pages, with genres (one blank, one unused) and decimal chapters
    for n in range(1, 2 * PAGE_SIZE + 6):
        _add_series(
            session, n, genres=["アクション"] + (["恋愛"] if n % 2 else []), chapters=(100, 1050)
        )
    session.add(Genre(name="未使用"))
    _add_series(session, 999, genres=[" "], chapters=(1200,), updated=T0 - timedelta(days=1))
    # When the catalogue is published
    result = publish_catalogue(
        session=session, out_dir=tmp_path, content_key=content_key, media_base_url=BASE
    )
    # Then pages 1..3 exist, full except the last, and nothing past it
    assert (result.series, result.pages) == (2 * PAGE_SIZE + 6, 3)
    pages = [_read(tmp_path / f"mangas_{n}.json") for n in (1, 2, 3)]
    assert [len(p["list"]) for p in pages] == [PAGE_SIZE, PAGE_SIZE, 6]
    assert not (tmp_path / "mangas_4.json").exists()
    items = [item for page in pages for item in page["list"]]
    # newest update first
    assert [i["updated_at"] for i in items] == sorted(
        (i["updated_at"] for i in items), reverse=True
    )
    assert items[-1]["slug"] == "series-999"
    first = items[0]
    assert set(first) >= {
        "slug",
        "title",
        "alt_titles",
        "cover",
        "genres",
        "status",
        "latest_chapter",
        "updated_at",
        "views",
    }
    assert (
        first["slug"] == "series-125"
        and first["title"] == "作品125"
        and first["alt_titles"] == ["Alias 125"]
    )
    key = f"{125:064x}"
    assert first["cover"] == f"https://cdn.example.test/media/{key[:2]}/{key}-cover320.webp"
    assert first["cover_small"] == f"https://cdn.example.test/media/{key[:2]}/{key}-cover160.webp"
    assert first["genres"] == ["アクション", "恋愛"] and first["status"] == "ongoing"
    assert first["latest_chapter"] == 10.5 and isinstance(first["latest_chapter"], float)
    assert items[-1]["latest_chapter"] == 12 and isinstance(items[-1]["latest_chapter"], int)
    assert ISO_Z.match(first["updated_at"]) and first["updated_at"] == "2024-01-01T02:05:00Z"
    assert first["views"] == 125 and isinstance(first["views"], int)
    assert first["romaji"] == ["sakuhin"] and first["chapters_count"] == 2
    # genres.json: only names with a total above zero, blank names left out
    assert _read(tmp_path / "genres.json") == [
        {"name": "アクション", "total": 125},
        {"name": "恋愛", "total": 63},
    ]


def test_manifests_decrypt_to_the_page_list_of_each_chapter(tmp_path, engine, media, content_key):
    # Given an imported series with chapters 1 and 10.5 (a large first page)
    pages = distinct_pages(3)
    pages[0] = image_bytes(size=(2400, 1200))
    write_cbz(
        tmp_path / "src" / "Series" / "Series 1.cbz", {f"{i}.png": p for i, p in enumerate(pages)}
    )
    write_cbz(
        tmp_path / "src" / "Series" / "Series 10.5.cbz", {"a.png": distinct_pages(1, seed=5)[0]}
    )
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    # When published
    with Session(engine) as session:
        result = publish_catalogue(
            session=session,
            out_dir=tmp_path / "out",
            content_key=content_key,
            media_base_url="/media",
        )
        keys = [
            p.media_key
            for p in session.exec(
                select(Page)
                .join(Chapter)
                .where(Chapter.number_hundredths == 100)
                .order_by(Page.index)
            )
        ]
    assert result.manifests == 2
    # Then each manifest is {"iv", "data"} and decrypts to URLs, saver URLs and sizes of the reader images
    manifest = _read(tmp_path / "out" / "manifests" / "series" / "1.json")
    assert set(manifest) == {"iv", "data"}
    listing = json.loads(decrypt_text(manifest["data"], content_key, manifest["iv"]))
    assert listing[0] == {
        "url": f"/media/{keys[0][:2]}/{keys[0]}-w1200.webp",
        "saver_url": f"/media/{keys[0][:2]}/{keys[0]}-w720.webp",
        "width": 1200,
        "height": 600,
    }
    assert [p["url"].rsplit("/", 1)[1][:64] for p in listing] == keys
    assert all(media.path(p["url"].removeprefix("/media/")).exists() for p in listing)
    half = _read(tmp_path / "out" / "manifests" / "series" / "10.5.json")
    assert len(json.loads(decrypt_text(half["data"], content_key, half["iv"]))) == 1
    assert decrypt_text(manifest["data"], "ab" * 32, manifest["iv"]) != json.dumps(listing)


def test_re_publishing_removes_pages_and_manifests_that_no_longer_apply(
    tmp_path, session, content_key
):
    # Given a published catalogue of two pages, one series with a chapter that will go away
    for n in range(1, PAGE_SIZE + 3):
        _add_series(session, n, chapters=(100, 200) if n == 1 else (100,))
    publish_catalogue(
        session=session, out_dir=tmp_path, content_key=content_key, media_base_url=BASE
    )
    assert (tmp_path / "mangas_2.json").exists()
    assert (tmp_path / "manifests" / "series-1" / "2.json").exists()
    # When series and a chapter are removed and the catalogue is published again
    for series in session.exec(select(Series).where(Series.id > 5)).all():
        session.delete(series)
    chapter = session.exec(select(Chapter).where(Chapter.number_hundredths == 200)).one()
    session.delete(chapter)
    session.commit()
    result = publish_catalogue(
        session=session, out_dir=tmp_path, content_key=content_key, media_base_url=BASE
    )
    # Then the stale page, series folders and chapter manifest are gone, the rest still there
    assert result.pages == 1 and not (tmp_path / "mangas_2.json").exists()
    assert len(_read(tmp_path / "mangas_1.json")["list"]) == 5
    assert sorted(p.name for p in (tmp_path / "manifests").iterdir()) == [
        f"series-{n}" for n in range(1, 6)
    ]
    assert [p.name for p in (tmp_path / "manifests" / "series-1").iterdir()] == ["1.json"]
    assert not list(tmp_path.rglob(".tmp-*"))


def test_an_empty_catalogue_publishes_no_pages_and_an_empty_genre_list(
    tmp_path, session, content_key
):
    (tmp_path / "mangas_1.json").write_text('{"list": []}')
    result = publish_catalogue(
        session=session, out_dir=tmp_path, content_key=content_key, media_base_url=BASE
    )
    assert result.pages == 0 and not (tmp_path / "mangas_1.json").exists()
    assert _read(tmp_path / "genres.json") == []


def test_a_placeholder_content_key_is_refused_before_anything_is_written(tmp_path, session):
    with pytest.raises(ValueError, match="placeholder"):
        publish_catalogue(
            session=session, out_dir=tmp_path / "out", content_key="changeme", media_base_url=BASE
        )
    assert not (tmp_path / "out").exists()
