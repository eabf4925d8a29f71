"""A real import of a messy library: control characters, non-characters and
undecodable names in folder names, series.json and ComicInfo.xml. What
enters the catalogue is clean text, a name that cannot be text is refused
with a reason naming its file, and the operator's terminal never receives
a raw escape sequence from a name."""

from __future__ import annotations

import json
import os
from pathlib import Path

from sqlmodel import Session, select

from manga_app.catalogue.cli import main
from manga_app.catalogue.models import Chapter, Series
from manga_app.core.db import make_engine

from .builders import distinct_pages, write_cbz

ESC = "\x1b"
FORBIDDEN = [chr(c) for c in (*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0), 0xFFFE, 0xFFFF)]

MESSY_COMICINFO = (
    "<?xml version='1.0' encoding='utf-8'?><ComicInfo><Series>汚れ&#x7F;作品</Series><Number>1</Number>"
    "<Title>はじまり&#x9F;</Title><Writer>架空 作家/共著</Writer><Genre>ホラー&#x85;</Genre>"
    "<Summary>一行目\n\t二行目&#x80;</Summary></ComicInfo>"
)


def write_messy_library(root: Path) -> None:
    """Three series: control characters in a folder name and its series.json;
    ComicInfo with non-characters; a file whose name is not UTF-8."""
    pages = {f"{i + 1}.png": p for i, p in enumerate(distinct_pages(2, seed=7))}
    folder = root / f"端末{ESC}[31m赤\x01"
    write_cbz(folder / "第1話.cbz", pages, comicinfo="<ComicInfo><Series>")  # a warning naming the file
    (folder / "series.json").write_text(json.dumps({"metadata": {
        "name": f"制御{ESC}[2J文字\x07の\uffff作品", "description_text": "あらすじ\x00一行目\n二行目\x1f\r\n三行目",
    }}), encoding="utf-8")
    write_cbz(root / "汚れ" / "汚れ 第1話.cbz", {f"{i + 1}.png": p for i, p in enumerate(distinct_pages(2, seed=8))},
              comicinfo=MESSY_COMICINFO)
    undecodable = os.fsencode(root / "壊れた名前") + b"\xff\xfe"
    os.makedirs(undecodable)
    write_cbz(Path(os.fsdecode(undecodable)) / "第1話.cbz", {f"{i + 1}.png": p for i, p in enumerate(distinct_pages(2, seed=9))})


def _clean(text: str, *, keep: str = "") -> bool:
    return not any(char in text and char not in keep for char in FORBIDDEN)


def test_a_messy_library_is_imported_as_clean_text_and_an_undecodable_name_is_refused_by_name(clean_settings, capfd):
    (clean_settings / ".env").write_text(f"DATA_DIR={clean_settings / 'data'}\n")
    root = clean_settings / "comics"
    write_messy_library(root)
    db_url = f"sqlite:///{clean_settings / 'site.db'}"
    status = main(["import", str(root), "--db", db_url])
    out, err = capfd.readouterr()
    # The undecodable file failed, with a reason that names it; the others are in.
    assert status == 1, out + err
    failed = sorted({line for line in (out + err).splitlines() if line.startswith("FAILED")})
    assert len(failed) == 1 and "壊れた名前\\xff\\xfe" in failed[0] and "not valid UTF-8" in failed[0], failed
    # Nothing the terminal would act on reached it.
    assert ESC not in out + err and "\x07" not in out + err
    assert "端末\\x1b[31m赤\\x01" in out + err
    with Session(make_engine(db_url)) as session:
        series = {row.title: row for row in session.exec(select(Series)).all()}
        chapters = session.exec(select(Chapter)).all()
    assert set(series) == {"制御[2J文字の作品", "汚れ作品"}, series.keys()
    assert series["制御[2J文字の作品"].summary == "あらすじ一行目\n二行目\n三行目"
    assert series["汚れ作品"].summary == "一行目\n\t二行目"
    assert all(_clean(row.title) and _clean(row.summary or "", keep="\t\n") for row in series.values())
    assert {chapter.title for chapter in chapters} == {"", "はじまり"}
