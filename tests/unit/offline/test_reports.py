"""manga_app/offline/reports.py: the reports of reading done offline, as the
browser uploads them, checked against tables of well- and ill-formed input."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from manga_app.offline import reports
from manga_app.accounts import reading

NOW = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)
AT = int(NOW.timestamp() * 1000) - 60_000


def item(**changes) -> dict:
    return {"path": "/abc-ch-2", "page": 3, "offset": 0.5, "at": AT, "furthest": 5, **changes}


@pytest.mark.parametrize(
    "bad",
    [
        "text", 7, None, [], {"path": 3}, item(path="/genres"), item(path="/abc-ch-x"), item(page=-1), item(page=True),
        item(page=1.5), item(offset=1.5), item(offset="0"), item(at="soon"), item(at=True), item(at=-1), item(furthest=-2),
        item(furthest=False), item(furthest=10**9),
    ],
)
def test_a_malformed_report_is_counted_and_left_out(bad):
    upload = reports.parse_reports([bad, item()], now=NOW)
    assert [report.path for report in upload.reports] == ["/abc-ch-2"]
    assert upload.bad == 1


def test_reports_come_oldest_first_with_the_furthest_page_at_least_the_last():
    upload = reports.parse_reports([item(at=AT), item(path="/abc-ch-1-hajimari", page=7, furthest=2, at=AT - 5000)], now=NOW)
    assert [(r.path, r.chapter, r.position.page, r.furthest) for r in upload.reports] == [
        ("/abc-ch-1-hajimari", "1", 7, 7), ("/abc-ch-2", "2", 3, 5)]
    assert upload.through == AT


def test_no_list_is_one_bad_upload_and_too_many_are_cut():
    assert reports.parse_reports({"path": "/abc-ch-1"}, now=NOW) == reports.Upload([], 1, 0)
    upload = reports.parse_reports([item(at=AT - i) for i in range(reports.MAX_REPORTS + 3)], now=NOW)
    assert (len(upload.reports), upload.bad, upload.through) == (reports.MAX_REPORTS, 3, AT)


def test_malformed_items_still_count_towards_what_was_taken():
    upload = reports.parse_reports([item(page=-1, at=AT + 9)], now=NOW)
    assert (upload.reports, upload.bad, upload.through) == ([], 1, AT + 9)


def test_a_chapter_finished_offline_is_read_even_when_left_on_an_earlier_page():
    report = reports.parse_reports([item(page=1, furthest=7)], now=NOW).reports[0]
    assert reports.finished(report, 8).finished and not reports.finished(report, 9).finished
    entry = reading.HistoryEntry(slug="abc", title="", cover="", chapter="2", chapter_title="", page=1, offset=0.0,
                                 read_at=reading.now_iso(NOW))
    [recorded] = reports.into_history([], report, entry, page_count=8)
    assert (recorded.chapter, recorded.page, recorded.read) == ("2", 1, ("2",))
