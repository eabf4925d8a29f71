"""Series-folder names lose their tags, which become the author and the status."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from manga_app.catalogue.importer import import_source
from manga_app.catalogue.models import Chapter, Series
from manga_app.catalogue.units import SeriesName, series_name

from .builders import distinct_pages, write_cbz


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("[作者] 作品名", SeriesName("作品名", ("作者",))),
        ("［山田太郎］ 作品名 (完)", SeriesName("作品名", ("山田太郎",), "completed")),
        ("【完結】作品名", SeriesName("作品名", (), "completed")),
        ("作品名 (連載中)", SeriesName("作品名", (), "ongoing")),
        ("作品名【カラー版】", SeriesName("作品名")),
        ("[山田×佐藤] 作品名", SeriesName("作品名", ("山田", "佐藤"))),
        ("作品名 (2019)", SeriesName("作品名")),
        ("ワンダー探偵", SeriesName("ワンダー探偵")),
        ("[作品名]", SeriesName("作品名")),
    ],
)
def test_series_folder_names_lose_their_tags(name, expected):
    assert series_name(name) == expected


def test_a_tagged_series_folder_and_a_loose_chapter_join_one_series(tmp_path, engine, media):
    # Given `[作者] 作品名 (完)/作品名 第1話.cbz` and, loose beside it, `作品名 第2話.cbz`
    source = tmp_path / "src"
    write_cbz(source / "[作者] 作品名 (完)" / "作品名 第1話.cbz", dict(zip(["1.png"], distinct_pages(1, seed=1))))
    write_cbz(source / "作品名 第2話.cbz", dict(zip(["1.png"], distinct_pages(1, seed=2))))
    # When the folder is imported
    assert import_source(source, engine=engine, media=media).ok
    # Then both chapters are in one series 作品名, by 作者, complete
    with Session(engine) as session:
        series = session.exec(select(Series)).all()
        assert [(s.title, s.authors, s.status, s.alt_titles) for s in series] == [
            ("作品名", ["作者"], "completed", [])
        ]
        assert sorted(c.number_hundredths for c in session.exec(select(Chapter))) == [100, 200]
