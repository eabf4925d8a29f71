"""A synthetic catalogue of N series for the publish and loader benchmarks.

Rows are inserted straight into a temporary SQLite database (migrated by
Alembic, like the real one) with SQLAlchemy core bulk inserts. Each series
looks like a demo series as the importer stores it: a Japanese title with
kana readings and romaji, a romaji alias, 3-6 genres, one author, a summary,
a cover key; to keep the run bounded it has ONE chapter of TWO pages.

The database and one published copy are built once per process and shared by
the benchmarks that need them; everything lives in one temporary directory
removed when the process exits.
"""

from __future__ import annotations

import atexit
import os
import random
import secrets
import shutil
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa

SERIES = 100_000
CHAPTERS_PER_SERIES = 1
PAGES_PER_CHAPTER = 2
MEDIA_BASE_URL = "/media"
CONTENT_KEY = "5f0c3a91d27e4b86a1c9e03d7b2f6a48e9d1c5b03a7f2e6d8c4b9a1f0e3d7c25"

_WORDS = [  # (written, hiragana, romaji)
    ("魔王", "まおう", "maou"), ("勇者", "ゆうしゃ", "yuusha"), ("学園", "がくえん", "gakuen"),
    ("恋", "こい", "koi"), ("剣", "けん", "ken"), ("星", "ほし", "hoshi"), ("猫", "ねこ", "neko"),
    ("料理", "りょうり", "ryouri"), ("探偵", "たんてい", "tantei"), ("王女", "おうじょ", "oujo"),
    ("異世界", "いせかい", "isekai"), ("放課後", "ほうかご", "houkago"), ("夜", "よる", "yoru"),
    ("花", "はな", "hana"), ("竜", "りゅう", "ryuu"), ("姫", "ひめ", "hime"), ("海", "うみ", "umi"),
    ("図書館", "としょかん", "toshokan"), ("鉄道", "てつどう", "tetsudou"), ("約束", "やくそく", "yakusoku"),
    ("タイムカード", "たいむかーど", "taimukaado"), ("スライム", "すらいむ", "suraimu"),
    ("ダンジョン", "だんじょん", "danjon"), ("カフェ", "かふぇ", "kafe"), ("ロボット", "ろぼっと", "robotto"),
    ("日和", "びより", "biyori"), ("物語", "ものがたり", "monogatari"), ("旅", "たび", "tabi"),
    ("少女", "しょうじょ", "shoujo"), ("先生", "せんせい", "sensei"), ("月", "つき", "tsuki"),
    ("怪獣", "かいじゅう", "kaijuu"), ("令嬢", "れいじょう", "reijou"), ("家庭菜園", "かていさいえん", "kateisaien"),
]
_GENRES = [
    "アクション", "アドベンチャー", "コメディ", "ドラマ", "ファンタジー", "ホラー", "ミステリー",
    "ロマンス", "SF", "日常", "スポーツ", "グルメ", "学園", "異世界", "歴史", "バトル", "お仕事",
    "魔法", "恋愛", "サスペンス", "ギャグ", "青春", "少年", "少女", "青年", "女性", "百合", "BL",
    "音楽", "動物",
]
_SUMMARY = "世界征服の予算が足りない。魔王城の経理課に配属された新人スライムは、今日も領収書の山と戦う。"

_STATE: dict[str, object] = {}


def _workdir() -> Path:
    if "dir" not in _STATE:
        path = Path(tempfile.mkdtemp(prefix="bench-catalogue-"))
        atexit.register(shutil.rmtree, path, ignore_errors=True)
        _STATE["dir"] = path
    return _STATE["dir"]


def _katakana(hiragana: str) -> str:
    return "".join(chr(ord(c) + 0x60) if "ぁ" <= c <= "ゖ" else c for c in hiragana)


def _series_rows(count: int, rng: random.Random) -> list[dict]:
    now = datetime(2025, 1, 1, tzinfo=UTC)
    authors = [f"作者{n:04d}" for n in range(5_000)]
    rows = []
    for n in range(1, count + 1):
        words = rng.sample(_WORDS, rng.randint(2, 4))
        joiner = rng.choice(["", "の"])
        title = joiner.join(w[0] for w in words) + f"{n}"
        hira = joiner.join(w[1] for w in words) + f"{n}"
        romaji = (" no " if joiner else " ").join(w[2] for w in words) + f" {n}"
        alias = romaji.title()
        readings = [
            {"text": title, "hiragana": hira, "katakana": _katakana(hira), "romaji": romaji},
            {"text": alias, "hiragana": alias, "katakana": alias, "romaji": alias.lower()},
        ]
        updated = now - timedelta(seconds=rng.randint(0, 3 * 365 * 86_400))
        author = rng.choice(authors)
        rows.append(
            {
                "id": n,
                "slug": f"{romaji.replace(' ', '-')}",
                "title": title,
                "title_key": title,
                "alt_titles": [alias],
                "readings": readings,
                "search_text": " ".join([title, hira, _katakana(hira), romaji, alias.lower()]),
                "authors": [author],
                "artists": [author],
                # 300 tags, about 330 series each (no draw from rng: the rest stays as it was).
                "tags": [f"タグ{n % 300:03d}"],
                "summary": _SUMMARY,
                "status": rng.choice(["ongoing", "ongoing", "completed"]),
                "direction": "rtl",
                "language": "ja",
                "cover_key": secrets.token_hex(32),
                "views": rng.randint(0, 250_000),
                "created_at": updated - timedelta(days=rng.randint(0, 700)),
                "updated_at": updated,
            }
        )
    return rows


def catalogue_db(count: int = SERIES) -> str:
    """URL of a migrated SQLite database holding `count` synthetic series (built once)."""
    cache_key = f"db-{count}"
    if cache_key in _STATE:
        return _STATE[cache_key]
    from manga_app.core.db import make_engine, migrate
    from manga_app.catalogue.models import Chapter, Genre, Page, Series, SeriesGenre

    started = time.perf_counter()
    path = _workdir() / f"catalogue-{count}.db"
    url = f"sqlite:///{path}"
    migrate(url)
    engine = make_engine(url)
    rng = random.Random(20_250_101)
    series = _series_rows(count, rng)
    with engine.begin() as conn:
        conn.execute(sa.insert(Genre.__table__), [{"id": i + 1, "name": g} for i, g in enumerate(_GENRES)])
        for start in range(0, count, 10_000):
            chunk = series[start : start + 10_000]
            conn.execute(sa.insert(Series.__table__), chunk)
            links, chapters, pages = [], [], []
            for row in chunk:
                for genre_id in rng.sample(range(1, len(_GENRES) + 1), rng.randint(3, 6)):
                    links.append({"series_id": row["id"], "genre_id": genre_id})
                for c in range(CHAPTERS_PER_SERIES):
                    chapter_id = (row["id"] - 1) * CHAPTERS_PER_SERIES + c + 1
                    chapters.append(
                        {
                            "id": chapter_id,
                            "series_id": row["id"],
                            "number_hundredths": (c + 1) * 100,
                            "title": "",
                            "slug": "",
                            "published_at": row["updated_at"],
                            "views": 0,
                            "page_count": PAGES_PER_CHAPTER,
                            "source_path": f"/library/{row['id']}/{c + 1}.cbz",
                            "fingerprint": f"{chapter_id}:0:{chapter_id:064x}",
                            "created_at": row["updated_at"],
                        }
                    )
                    for index in range(PAGES_PER_CHAPTER):
                        pages.append(
                            {
                                "chapter_id": chapter_id,
                                "index": index,
                                "media_key": secrets.token_hex(32),
                                "ext": "png",
                                "width": 720,
                                "height": 1024,
                                "bytes": 150_000,
                            }
                        )
            conn.execute(sa.insert(SeriesGenre.__table__), links)
            conn.execute(sa.insert(Chapter.__table__), chapters)
            conn.execute(sa.insert(Page.__table__), pages)
    engine.dispose()
    _STATE[cache_key] = url
    _STATE[f"build-{count}"] = time.perf_counter() - started
    return url


def build_seconds(count: int = SERIES) -> float | None:
    return _STATE.get(f"build-{count}")


def remember_published(count: int, out_dir: Path) -> None:
    """A benchmark that published the synthetic catalogue offers its output to later ones."""
    _STATE[f"published-{count}"] = out_dir


def published(count: int = SERIES) -> Path:
    """A directory with the published synthetic catalogue (published once per process)."""
    cache_key = f"published-{count}"
    if cache_key not in _STATE:
        from sqlmodel import Session

        from manga_app.core.db import make_engine
        from manga_app.catalogue.publisher import publish_catalogue

        engine = make_engine(catalogue_db(count))
        out_dir = _workdir() / f"published-{count}"
        with Session(engine) as session:
            publish_catalogue(
                session=session, out_dir=out_dir, content_key=CONTENT_KEY,
                media_base_url=MEDIA_BASE_URL,
            )
        engine.dispose()
        _STATE[cache_key] = out_dir
    return _STATE[cache_key]


def data_folder(data: Path, count: int = SERIES) -> None:
    """A site's DATA_DIR for the synthetic catalogue: its published lists, and a media store marked
    as up to date, as a real store of that size is. The synthetic pages have no files, so without the
    mark the job consumer beside the server looks for 200,000 originals to upgrade at every start
    (catalogue/sweep.upgrade_derivatives: 10 s of a core, while the benchmark renders pages)."""
    from manga_app.catalogue.sweep import UPGRADED_NAME

    os.symlink(published(count), data / "published")
    (data / "media").mkdir(exist_ok=True)
    (data / "media" / UPGRADED_NAME).touch()


def directory_bytes(root: Path) -> tuple[int, int]:
    """(files, bytes) under root."""
    files = size = 0
    for path in root.rglob("*"):
        if path.is_file():
            files += 1
            size += path.stat().st_size
    return files, size
