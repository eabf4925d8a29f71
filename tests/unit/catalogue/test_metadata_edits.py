"""The console's metadata edits on a real SQLite catalogue: each edited field
is locked and survives a re-import of changed files, unlocking gives the
files their say again, bad input changes nothing, and every change is in
the audit log."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select

from manga_app.catalogue import audit, locks, metadata
from manga_app.catalogue.importer import import_source
from manga_app.catalogue.models import AuditEntry, Chapter, Series
from manga_app.catalogue.repository import genres_by_series

from .builders import comicinfo_xml, distinct_pages, touch_later, write_cbz

OPERATOR = metadata.Actor("uid-operator", "op@example.com")


def _cbz(path, *, seed=0, title="第1話", summary="ファイルのあらすじ", genre="アクション"):
    info = comicinfo_xml(Series="進撃の巨人", Title=title, Number="1", Summary=summary, Genre=genre, Writer="諫山創")
    pages = {f"{i + 1}.png": data for i, data in enumerate(distinct_pages(2, seed=seed))}
    return write_cbz(path, {**pages, "ComicInfo.xml": info.encode()})


def _series(session) -> Series:
    return session.exec(select(Series)).one()


def _form(session, series, **changes) -> dict:
    return {**metadata.series_form(session, series), **changes}


@pytest.fixture
def imported(tmp_path, engine, media):
    archive = _cbz(tmp_path / "src" / "進撃の巨人" / "第1話.cbz")
    assert import_source(tmp_path / "src", engine=engine, media=media).ok
    return archive


def _reimport_changed(tmp_path, engine, media, archive, **kwargs):
    _cbz(archive, seed=5, **kwargs)
    touch_later(archive)
    report = import_source(tmp_path / "src", engine=engine, media=media)
    assert report.ok and len(report.imported) == 1


def test_edited_fields_are_locked_against_a_reimport_and_unlocking_gives_the_file_its_say(tmp_path, engine, media, imported):
    with Session(engine) as session:
        series = _series(session)
        changed = metadata.edit_series(session, series, _form(
            session, series, title="進撃の巨人 完全版", reading="しんげきのきょじんかんぜんばん",
            summary="運営者のあらすじ", genres="ドラマ", status="completed", age_rating="r15"), OPERATOR)
        metadata.edit_unit_title(session, series, 100, "運営者の題", OPERATOR)
        session.commit()
    assert set(changed) == {"title", "reading", "summary", "genres", "status", "age_rating"}
    # The files say otherwise at the next import (a changed file is read again)
    _reimport_changed(tmp_path, engine, media, imported, title="ファイルの題", summary="新しいあらすじ", genre="ホラー")
    with Session(engine) as session:
        series = _series(session)
        assert (series.title, series.summary, series.status, series.age_rating) == (
            "進撃の巨人 完全版", "運営者のあらすじ", "completed", "r15")
        assert genres_by_series(session=session, series_ids=[series.id])[series.id] == ["ドラマ"]
        assert metadata.title_reading(series) == "しんげきのきょじんかんぜんばん"
        assert "shingekinokyojinkanzenban" in series.search_text
        assert session.exec(select(Chapter.title)).one() == "運営者の題"
        assert len(session.exec(select(Series)).all()) == 1, "the files still find the renamed series"
        metadata.unlock(session, series, "summary", OPERATOR)
        metadata.unlock(session, series, "title", OPERATOR, unit_key=100)
        session.commit()
    _reimport_changed(tmp_path, engine, media, imported, title="また別の題", summary="最新のあらすじ")
    with Session(engine) as session:
        series = _series(session)
        assert series.summary == "最新のあらすじ"
        assert session.exec(select(Chapter.title)).one() == "また別の題"
        assert series.title == "進撃の巨人 完全版", "still locked"


def test_every_change_is_in_the_audit_log_with_who_and_before_and_after(engine, imported):
    with Session(engine) as session:
        series = _series(session)
        metadata.edit_series(session, series, _form(session, series, summary="新"), OPERATOR)
        session.commit()
        entries, slug = audit.latest(session), series.slug
    assert [(e.actor_email, e.action, e.target, e.before, e.after) for e in entries] == [
        ("op@example.com", "edit", f"series '{slug}' summary", "ファイルのあらすじ", "新")]


@pytest.mark.parametrize(("field", "value", "message"), [
    ("title", "   ", "Title is required."),
    ("reading", "shingeki", "hiragana or katakana"),
    ("status", "paused", "Status must be one of"),
    ("direction", "up", "Reading direction must be one of"),
    ("age_rating", "r21", "Age rating must be one of"),
    ("summary", "あ" * 5001, "Summary is too long"),
    ("authors", "\n".join(f"作者{i}" for i in range(51)), "at most 50 entries"),
])
def test_a_bad_field_is_refused_with_its_message_and_nothing_changes(engine, imported, field, value, message):
    with Session(engine) as session:
        series = _series(session)
        before = metadata.series_form(session, series)
        with pytest.raises(metadata.FormRefused) as refused:
            metadata.edit_series(session, series, _form(session, series, **{"summary": "変えた", field: value}), OPERATOR)
        session.rollback()
        assert message in refused.value.errors[field]
        assert metadata.series_form(session, _series(session)) == before
        assert session.exec(select(AuditEntry)).all() == []
        assert locks.locked(session, series.id) == frozenset()


def test_a_title_another_series_has_is_refused(tmp_path, engine, media, imported):
    with Session(engine) as session:
        series = _series(session)
        session.add(Series(title="別の作品", title_key="別の作品", slug="betsu"))
        session.commit()
        with pytest.raises(metadata.FormRefused) as refused:
            metadata.edit_series(session, series, _form(session, series, title="別の作品"), OPERATOR)
    assert "already has this title" in refused.value.errors["title"]


def test_the_cover_is_any_page_of_any_unit_and_stays_through_a_reimport(tmp_path, engine, media, imported):
    with Session(engine) as session:
        series = _series(session)
        first = series.cover_key
        chosen = metadata.set_cover(session, series, 100, 2, media, OPERATOR)
        session.commit()
        with pytest.raises(metadata.FormRefused, match="pages 1 to 2"):
            metadata.set_cover(session, series, 100, 3, media, OPERATOR)
    assert chosen != first and media.has_cover(chosen)
    _reimport_changed(tmp_path, engine, media, imported)
    with Session(engine) as session:
        assert _series(session).cover_key == chosen


def test_a_cover_whose_image_is_gone_is_refused_with_a_reason_and_nothing_changes(engine, media, imported):
    from manga_app.catalogue.media import original_path
    from manga_app.catalogue.models import Page

    with Session(engine) as session:
        series = _series(session)
        before = series.cover_key
        page = session.exec(select(Page).where(Page.index == 1)).one()
        media.path(original_path(page.media_key, page.ext)).unlink()
        with pytest.raises(metadata.FormRefused) as refused:
            metadata.set_cover(session, series, 100, 2, media, OPERATOR)
        session.rollback()
        assert "could not be made a cover" in refused.value.errors["cover"]
        assert _series(session).cover_key == before and session.exec(select(AuditEntry)).all() == []
