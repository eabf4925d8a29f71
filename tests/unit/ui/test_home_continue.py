"""The home's 続きを読む (issue 32): the series whose last chapter was left
part-way, most recently read first, each linking to that chapter."""

from __future__ import annotations

import pytest

from manga_app.pages.home.logic import CONTINUE_COUNT, continue_cards
from manga_app.accounts.reading import HistoryEntry


def _entry(slug: str, chapter: str, page: int, read_at: str, read: tuple[str, ...] = ()) -> HistoryEntry:
    return HistoryEntry(slug=slug, title=slug.upper(), cover=f"/media/{slug}.webp", chapter=chapter, chapter_title="",
                        page=page, offset=0.0, read_at=read_at, read=read)


@pytest.mark.parametrize(
    ("entries", "known", "expected"),
    [
        pytest.param([], None, [], id="no-history"),
        pytest.param([_entry("a", "3", 4, "2026-01-02T00:00:00Z")], None,
                     [("a", "第3話", "5ページ目から", "/a-ch-3")], id="left-part-way"),
        pytest.param([_entry("a", "3", 7, "2026-01-02T00:00:00Z", read=("1", "2", "3"))], None, [], id="finished-is-not-left"),
        pytest.param([_entry("a", "1", 0, "2026-01-01T00:00:00Z"), _entry("b", "2.5", 1, "2026-01-03T00:00:00Z"),
                      _entry("c", "1000002", 0, "2026-01-02T00:00:00Z")], None,
                     [("b", "第2.5話", "2ページ目から", "/b-ch-2.5"), ("c", "第2巻", "1ページ目から", "/c-ch-2-vol"),
                      ("a", "第1話", "1ページ目から", "/a-ch-1")], id="newest-first-chapters-and-volumes"),
        pytest.param([_entry("a", "1", 2, "2026-01-01T00:00:00Z"), _entry("gone", "1", 2, "2026-01-02T00:00:00Z")], {"a"},
                     [("a", "第1話", "3ページ目から", "/a-ch-1")], id="series-no-longer-listed"),
        pytest.param([_entry("a", "1", 2, "garbage"), _entry("b", "1", 0, "2026-01-01T00:00:00Z")], None,
                     [("b", "第1話", "1ページ目から", "/b-ch-1"), ("a", "第1話", "3ページ目から", "/a-ch-1")],
                     id="unreadable-time-last"),
    ],
)
def test_continue_cards(entries, known, expected) -> None:
    cards = continue_cards(entries, known=known)
    assert [(card.slug, card.chapter_label, card.page_label, card.url) for card in cards] == expected


def test_continue_cards_are_capped() -> None:
    entries = [_entry(f"s{n}", "1", 1, f"2026-01-01T00:{n:02d}:00Z") for n in range(CONTINUE_COUNT + 5)]
    cards = continue_cards(entries)
    assert len(cards) == CONTINUE_COUNT and cards[0].slug == f"s{CONTINUE_COUNT + 4}"
