"""publish_catalogue: the JSON contract, encrypted manifests and removal of stale files."""

from __future__ import annotations

import gzip
import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlmodel import Session, select

from manga_app.catalogue import publish_manifests, publisher
from manga_app.catalogue.importer import import_source
from manga_app.catalogue.models import Chapter, Genre, Page, Series, SeriesGenre
from manga_app.catalogue.publisher import MANIFEST_INDEX, publish_catalogue
from manga_app.core.crypto import decrypt_text

from .builders import distinct_pages, image_bytes, write_cbz

ISO_Z = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$")
BASE = "https://cdn.example.test/media/"
T0 = datetime(2024, 1, 1, tzinfo=UTC)
PAGE_SIZE = 60  # small pages keep these tests quick; the real size is publisher.PAGE_SIZE


@pytest.fixture(autouse=True)
def _small_pages(monkeypatch):
    monkeypatch.setattr(publisher, "PAGE_SIZE", PAGE_SIZE)


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


def test_list_pages_follow_the_contract_in_the_order_series_were_added_with_a_fixed_page_size(
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
    # in the order the series were added (whatever their updates): a change stays on its page
    assert [i["slug"] for i in items] == [f"series-{n}" for n in (*range(1, 2 * PAGE_SIZE + 6), 999)]
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
        first["slug"] == "series-1"
        and first["title"] == "作品1"
        and first["alt_titles"] == ["Alias 1"]
    )
    key = f"{1:064x}"
    assert first["cover"] == f"https://cdn.example.test/media/{key[:2]}/{key}-cover320.webp"
    assert first["cover_small"] == f"https://cdn.example.test/media/{key[:2]}/{key}-cover160.webp"
    assert first["genres"] == ["アクション", "恋愛"] and first["status"] == "ongoing"
    assert first["latest_chapter"] == 10.5 and isinstance(first["latest_chapter"], float)
    assert items[-1]["latest_chapter"] == 12 and isinstance(items[-1]["latest_chapter"], int)
    assert ISO_Z.match(first["updated_at"]) and first["updated_at"] == "2024-01-01T00:01:00Z"
    assert first["views"] == 1 and isinstance(first["views"], int)
    assert first["readings"] == [{"hiragana": "さくひん", "romaji": "sakuhin"}]
    assert first["chapters_count"] == 2
    # What only the title page needs stays out of the list every backend holds;
    # the artists are in it, since the author pages list a series under them too.
    assert not {"summary", "direction"} & set(first)
    assert first["artists"] == [] and first["tags"] == []
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
        "url": f"/media/{keys[0][:2]}/{keys[0]}-w1200.jpg",
        "saver_url": f"/media/{keys[0][:2]}/{keys[0]}-w720.webp",
        "width": 1200,
        "height": 600,
        # The first page carries the chapter's double-page offset: a spread first needs none.
        "spread_offset": False,
    }
    assert all("spread_offset" not in p for p in listing[1:])
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
    assert sorted(p.name for p in (tmp_path / "manifests").iterdir() if p.is_dir()) == [
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


def _manifest_files(root: Path) -> dict[str, tuple[int, int]]:
    """'slug/name' -> (inode, mtime_ns) of every manifest."""
    return {
        f"{p.parent.name}/{p.name}": (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in (root / "manifests").glob("*/*.json")
    }


def _add_page(session: Session, chapter_id: int, index: int, key: str) -> None:
    session.add(
        Page(
            chapter_id=chapter_id, index=index, media_key=key, ext="png", width=800, height=1200,
            bytes=1,
        )
    )
    session.commit()


def test_re_publishing_rewrites_only_the_manifests_whose_page_list_changed(
    tmp_path, session, content_key
):
    # Given a published catalogue of three series with two chapters each
    for n in (1, 2, 3):
        _add_series(session, n, chapters=(100, 200))
    for chapter in session.exec(select(Chapter)).all():
        _add_page(session, chapter.id, 0, f"{chapter.id:064x}")

    def publish(key=content_key):
        return publish_catalogue(
            session=session, out_dir=tmp_path, content_key=key, media_base_url=BASE
        )

    first = publish()
    assert (first.manifests, first.rewritten) == (6, 6)
    before = _manifest_files(tmp_path)
    # When nothing changed, then nothing is encrypted or written again
    again = publish()
    assert (again.manifests, again.rewritten) == (6, 0)
    assert _manifest_files(tmp_path) == before
    # When one chapter gets another page, then only its manifest is rewritten
    chapter = session.exec(
        select(Chapter).join(Series).where(Series.slug == "series-2", Chapter.number_hundredths == 100)
    ).one()
    _add_page(session, chapter.id, 1, "e" * 64)
    changed = publish()
    assert changed.rewritten == 1
    after = _manifest_files(tmp_path)
    assert {name for name in after if after[name] != before[name]} == {"series-2/1.json"}
    manifest = _read(tmp_path / "manifests" / "series-2" / "1.json")
    listing = json.loads(decrypt_text(manifest["data"], content_key, manifest["iv"]))
    assert [page["url"][-74:-10] for page in listing] == [f"{chapter.id:064x}", "e" * 64]
    # A manifest deleted or altered behind the publisher's back is written again
    (tmp_path / "manifests" / "series-3" / "2.json").unlink()
    (tmp_path / "manifests" / "series-1" / "2.json").write_text('{"iv": "", "data": ""}')
    assert publish().rewritten == 2
    assert _read(tmp_path / "manifests" / "series-1" / "2.json")["data"]
    # A new content key re-encrypts everything
    assert publish("cd34" * 16).rewritten == 6


def test_without_its_index_the_publisher_writes_every_manifest_again(
    tmp_path, session, content_key
):
    _add_series(session, 1, chapters=(100, 200))

    def publish():
        return publish_catalogue(
            session=session, out_dir=tmp_path, content_key=content_key, media_base_url=BASE
        )

    publish()
    index = tmp_path / "manifests" / MANIFEST_INDEX
    assert index.exists()
    index.unlink()
    assert publish().rewritten == 2
    index.write_text("not an index\n")
    assert publish().rewritten == 2


def test_an_interrupted_publish_leaves_no_index_and_the_next_one_writes_everything(
    tmp_path, session, content_key, monkeypatch
):
    for n in (1, 2, 3):
        _add_series(session, n)
    for chapter in session.exec(select(Chapter)).all():
        _add_page(session, chapter.id, 0, f"{chapter.id:064x}")

    def publish():
        return publish_catalogue(
            session=session, out_dir=tmp_path, content_key=content_key, media_base_url=BASE
        )

    publish()
    calls = []

    def failing_encrypt(plaintext, key):
        calls.append(plaintext)
        raise OSError("disk full")

    # A changed base URL changes every page list; the first encryption fails
    monkeypatch.setattr(publish_manifests, "encrypt_text", failing_encrypt)
    with pytest.raises(OSError):
        publish_catalogue(
            session=session, out_dir=tmp_path, content_key=content_key, media_base_url="/other/"
        )
    assert len(calls) == 1
    assert not (tmp_path / "manifests" / MANIFEST_INDEX).exists()
    assert not list(tmp_path.rglob(".tmp-*"))
    monkeypatch.undo()
    monkeypatch.setattr(publisher, "PAGE_SIZE", PAGE_SIZE)
    assert publish().rewritten == 3


def test_list_pages_after_the_first_are_rewritten_only_when_their_content_changes(
    tmp_path, session, content_key
):
    for n in range(1, PAGE_SIZE + 6):
        _add_series(session, n)

    def publish():
        publish_catalogue(
            session=session, out_dir=tmp_path, content_key=content_key, media_base_url=BASE
        )
        return {n: (tmp_path / f"mangas_{n}.json").stat().st_ino for n in (1, 2)}

    first = publish()
    # Nothing changed: nothing is written, so no backend reloads the catalogue for nothing
    assert publish() == first
    # A change on page 1 only: page 1 is rewritten, page 2 keeps its file
    first_added = session.exec(select(Series).order_by(Series.id)).first()
    first_added.views = 777
    session.commit()
    second = publish()
    assert second[1] != first[1] and second[2] == first[2]
    # A change on page 2: page 2 is rewritten, and page 1 too (the held catalogue notices a publish by it)
    series = session.exec(select(Series).where(Series.slug == f"series-{PAGE_SIZE + 5}")).one()
    series.views = 12345
    session.commit()
    third = publish()
    assert third[2] != second[2] and third[1] != second[1]
    assert any(i["views"] == 12345 for i in _read(tmp_path / "mangas_2.json")["list"])


def test_list_readings_keep_the_title_reading_first_and_drop_repeated_forms(
    tmp_path, session, content_key
):
    series = _add_series(session, 1)
    series.title, series.alt_titles = "ねこまち日和", ["Nekomachi Biyori", "ねこまち"]
    series.readings = [
        {"text": "ねこまち日和", "hiragana": "ねこまちびより", "katakana": "ネコマチビヨリ",
         "romaji": "nekomachi biyori"},
        {"text": "Nekomachi Biyori", "hiragana": "Nekomachi Biyori",
         "katakana": "Nekomachi Biyori", "romaji": "nekomachi biyori"},
        {"text": "ねこまち", "hiragana": "ねこまち", "katakana": "ネコマチ", "romaji": "nekomachi"},
    ]
    kana_title = _add_series(session, 2)
    kana_title.title, kana_title.alt_titles = "ひらがな", []
    kana_title.readings = [
        {"text": "ひらがな", "hiragana": "ひらがな", "katakana": "ヒラガナ", "romaji": "hiragana"}
    ]
    session.commit()
    publish_catalogue(session=session, out_dir=tmp_path, content_key=content_key, media_base_url=BASE)
    readings = {i["slug"]: i["readings"] for i in _read(tmp_path / "mangas_1.json")["list"]}
    # The romaji equal (but for case) to an alias, katakana spellings of the hiragana,
    # the Latin alias read as itself and the kana alias's own forms are left out
    assert readings["series-1"] == [{"hiragana": "ねこまちびより"}, {"romaji": "nekomachi"}]
    # A title written in hiragana keeps its reading first, as the sort key
    assert readings["series-2"] == [{"hiragana": "ひらがな", "romaji": "hiragana"}]


def test_list_pages_and_genres_get_a_gzip_twin_with_the_same_json(tmp_path, session, content_key):
    for n in range(1, PAGE_SIZE + 6):
        _add_series(session, n, genres=["アクション"])

    def publish():
        publish_catalogue(
            session=session, out_dir=tmp_path, content_key=content_key, media_base_url=BASE
        )

    publish()
    for name in ("genres.json", "mangas_1.json", "mangas_2.json"):
        plain = (tmp_path / name).read_bytes()
        assert gzip.decompress((tmp_path / f"{name}.gz").read_bytes()) == plain, name
    # An unchanged page keeps both files; the same JSON always compresses to the same bytes
    twin = (tmp_path / "mangas_2.json.gz").stat().st_ino
    first_twin = (tmp_path / "mangas_1.json.gz").read_bytes()
    publish()
    assert (tmp_path / "mangas_2.json.gz").stat().st_ino == twin
    assert (tmp_path / "mangas_1.json.gz").read_bytes() == first_twin
    # A page that is gone takes its twin with it
    for series in session.exec(select(Series).where(Series.id > 5)).all():
        session.delete(series)
    session.commit()
    publish()
    assert not (tmp_path / "mangas_2.json").exists() and not (tmp_path / "mangas_2.json.gz").exists()
    assert not list(tmp_path.rglob(".tmp-*"))


def test_list_items_carry_the_tags_apart_from_the_genres(tmp_path, session, content_key):
    series = _add_series(session, 1, genres=["日常"])
    series.tags = ["魔法", "お仕事"]
    session.commit()
    publish_catalogue(session=session, out_dir=tmp_path, content_key=content_key, media_base_url=BASE)
    [item] = _read(tmp_path / "mangas_1.json")["list"]
    assert (item["genres"], item["tags"]) == (["日常"], ["魔法", "お仕事"])


def test_list_items_name_the_avif_covers_when_the_media_store_has_them(tmp_path, session, content_key):
    series = _add_series(session, 1)
    series.cover_key = "ab" * 32
    session.commit()
    publish_catalogue(session=session, out_dir=tmp_path, content_key=content_key, media_base_url=BASE)
    [item] = _read(tmp_path / "mangas_1.json")["list"]
    assert "cover_avif" not in item and "cover_small_avif" not in item
    publish_catalogue(session=session, out_dir=tmp_path, content_key=content_key, media_base_url=BASE, avif=True)
    [item] = _read(tmp_path / "mangas_1.json")["list"]
    assert item["cover"].endswith("-cover320.webp") and item["cover_small"].endswith("-cover160.webp")
    assert (item["cover_avif"], item["cover_small_avif"]) == (item["cover"][:-5] + ".avif", item["cover_small"][:-5] + ".avif")


def test_manifests_point_strips_too_tall_for_webp_at_their_jpeg_copies(tmp_path, session, content_key):
    _add_series(session, 1)
    chapter = session.exec(select(Chapter)).one()
    for index, (width, height) in enumerate(((800, 40_000), (2400, 3600))):
        session.add(Page(chapter_id=chapter.id, index=index, media_key=f"{index:064x}", ext="png",
                         width=width, height=height, bytes=1))
    session.commit()
    publish_catalogue(session=session, out_dir=tmp_path, content_key=content_key, media_base_url=BASE)
    manifest = _read(tmp_path / "manifests" / "series-1" / "1.json")
    strip, page = json.loads(decrypt_text(manifest["data"], content_key, manifest["iv"]))
    assert strip["url"].endswith("-w1200.jpg") and strip["saver_url"].endswith("-w720.jpg")
    assert (strip["width"], strip["height"]) == (800, 40_000)
    assert page["url"].endswith("-w1200.jpg") and page["saver_url"].endswith("-w720.webp")
    assert (page["width"], page["height"]) == (1200, 1800)


def test_a_chapter_whose_spread_needs_the_cover_alone_says_so_in_its_manifest(tmp_path, engine, media, content_key):
    # Given a chapter with a spread at index 1, after a single cover
    narrow, wide = (40, 60), (120, 60)
    sizes = [narrow, wide, narrow, narrow]
    write_cbz(
        tmp_path / "src" / "Series" / "Series 1.cbz",
        {f"{i}.png": image_bytes((i * 50, 10, 10), size=size) for i, size in enumerate(sizes)},
    )
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    # When published
    with Session(engine) as session:
        publish_catalogue(session=session, out_dir=tmp_path / "out", content_key=content_key, media_base_url="/media")
    # Then the manifest's first page says the first page stands alone
    manifest = _read(tmp_path / "out" / "manifests" / "series" / "1.json")
    listing = json.loads(decrypt_text(manifest["data"], content_key, manifest["iv"]))
    assert len(listing) == 4 and listing[0]["spread_offset"] is True
