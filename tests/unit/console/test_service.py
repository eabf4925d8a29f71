"""The console's changes on a real SQLite catalogue and a real publish: one
transaction and one publish each, the CLI's library edits with their dry run,
an audit entry with each change and none with a preview or a refusal."""

from __future__ import annotations

import json

import pytest
from sqlmodel import Session, select

from manga_app.catalogue import metadata
from manga_app.catalogue.importer import import_source
from manga_app.catalogue.models import AuditEntry, Chapter, Series
from manga_app.console import service
from manga_app.core import db
from tests.unit.catalogue.builders import comicinfo_xml, distinct_pages, write_cbz

OPERATOR = metadata.Actor("uid-op", "op@example.com")


@pytest.fixture
def library(tmp_path, engine, media, configure, monkeypatch, content_key) -> str:
    for number in (1, 2):
        info = comicinfo_xml(Series="港町日和", Number=str(number), Summary="ファイル")
        pages = {f"{i}.png": data for i, data in enumerate(distinct_pages(2, seed=number))}
        write_cbz(tmp_path / "src" / "港町日和" / f"第{number}話.cbz", {**pages, "ComicInfo.xml": info.encode()})
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    configure(DATA_DIR=tmp_path, CONTENT_KEY=content_key, MEDIA_BASE_URL="/media")
    monkeypatch.setattr(db, "_SHARED_ENGINE", engine)
    with Session(engine) as session:
        return session.exec(select(Series.slug)).one()


def _published(tmp_path) -> dict:
    return json.loads((tmp_path / "published" / "mangas_1.json").read_text())["list"][0]


def _audit(engine) -> list[tuple[str, str]]:
    with Session(engine) as session:
        return [(entry.action, entry.target) for entry in session.exec(select(AuditEntry).order_by(AuditEntry.id))]


def test_a_series_edit_is_saved_and_published_at_once(tmp_path, engine, library):
    with Session(engine) as session:
        form = metadata.series_form(session, session.exec(select(Series)).one())
    done = service.edit_series(library, {**form, "title": "港町日和 改", "genres": "日常\nグルメ"}, OPERATOR)
    assert done.ok and "Published" in done.lines[-1]
    published = _published(tmp_path)
    assert published["title"] == "港町日和 改" and sorted(published["genres"]) == ["グルメ", "日常"]
    assert _audit(engine) == [("edit", f"series '{library}' title"), ("edit", f"series '{library}' genres")]


def test_a_refused_form_saves_nothing_publishes_nothing_and_says_why_per_field(tmp_path, engine, library):
    done = service.edit_series(library, {"title": "", "status": "paused", "direction": "rtl", "age_rating": ""}, OPERATOR)
    assert done.errors == {"title": "Title is required.", "status": "Status must be one of: ongoing, completed."}
    assert not (tmp_path / "published").exists() and _audit(engine) == []
    assert service.edit_series("no-such-series", {}, OPERATOR).errors["form"].startswith("There is no series")


def test_renumber_previews_with_the_clis_dry_run_then_applies_with_its_audit_entry(tmp_path, engine, library):
    values = {"series": library, "old": "2", "new": "第1巻"}
    preview = service.library_edit("renumber", values, OPERATOR, dry_run=True)
    assert preview.lines == [f"would renumber chapter 2 of '港町日和' as volume 1", "Dry run: nothing changed."]
    assert _audit(engine) == []
    with Session(engine) as session:
        assert sorted(session.exec(select(Chapter.number_hundredths))) == [100, 200]
    done = service.library_edit("renumber", values, OPERATOR, dry_run=False)
    assert done.ok and done.lines[0] == "renumber chapter 2 of '港町日和' as volume 1"
    with Session(engine) as session:
        assert sorted(session.exec(select(Chapter.kind))) == ["chapter", "volume"]
    assert _audit(engine) == [("renumber", f"{library} 2 第1巻")]
    assert _published(tmp_path)["latest_unit"]["kind"] in ("chapter", "volume")


def test_a_conflicting_or_unknown_library_edit_changes_nothing_and_says_so(engine, library):
    clash = service.library_edit("renumber", {"series": library, "old": "2", "new": "1"}, OPERATOR, dry_run=True)
    assert "already has chapter 1" in clash.errors["renumber"] and clash.errors["renumber"].endswith("nothing changed.")
    unknown = service.library_edit("merge-series", {"source": library, "target": "どこにもない"}, OPERATOR, dry_run=False)
    assert "no series 'どこにもない'" in unknown.errors["merge-series"]
    bad = service.library_edit("remove", {"series": library, "units": ["12話"]}, OPERATOR, dry_run=True)
    assert "has no chapter 12" in bad.errors["remove"]
    assert _audit(engine) == []
