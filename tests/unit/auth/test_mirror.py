"""The account's history mirrored into the browser format: per series the
newer of the account's and the browser's entry, read marks united."""

from __future__ import annotations

from datetime import UTC, datetime

from manga_app import reading
from manga_app.auth.repository import HistoryRow
from manga_app.catalogue.held import Snapshot
from manga_app.catalogue.loader import MangaItem
from manga_app.state.library import _mirror

T = datetime(2026, 11, 1, tzinfo=UTC)


def item(slug: str) -> MangaItem:
    return MangaItem(slug=slug, title=f"{slug}の題", alt_titles=(), cover="c.webp", genres=(), status="ongoing",
                     latest_chapter=5, updated_at=T, views=0, created_at=T, authors=(), readings=(), cover_small="s.webp",
                     chapters=5)


SNAPSHOT = Snapshot.build([item("a"), item("b")], [], "v1")


def local(slug: str, chapter: str, read_at: str, read: tuple[str, ...] = ()) -> reading.HistoryEntry:
    return reading.HistoryEntry(slug=slug, title="", cover="", chapter=chapter, chapter_title="話の題", page=1, offset=0.0,
                                read_at=read_at, read=read or (chapter,))


def row(slug: str, hundredths: int, at: datetime, read: tuple[int, ...]) -> HistoryRow:
    return HistoryRow(series_slug=slug, chapter_hundredths=hundredths, page=7, offset=0.5, updated_at=at, read=read)


def test_the_account_wins_when_it_is_newer_and_read_marks_are_united():
    [entry] = _mirror([row("a", 300, T, (100, 300))], [local("a", "2", "2026-10-01T00:00:00Z")], SNAPSHOT)
    assert (entry.chapter, entry.page, entry.title, entry.cover) == ("3", 7, "aの題", "s.webp")
    assert set(entry.read) == {"1", "2", "3"}


def test_the_browser_wins_when_it_is_newer_and_browser_only_series_stay():
    entries = _mirror([row("a", 300, T, (300,))], [local("a", "4", "2026-11-02T00:00:00Z"), local("b", "1", "2026-10-01T00:00:00Z")], SNAPSHOT)
    assert [(entry.slug, entry.chapter) for entry in entries] == [("a", "4"), ("b", "1")]


def test_decimal_chapters_keep_their_url_form():
    [entry] = _mirror([row("a", 1050, T, (1050,))], [], SNAPSHOT)
    assert entry.chapter == "10.5" and entry.read == ("10.5",)
