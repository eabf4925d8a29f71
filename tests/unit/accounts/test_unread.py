"""The library's figures on real SQLite and PostgreSQL: unread units after
the furthest finished one, 更新あり after the last opening, statuses kept
through a guest's merge into a Google account."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from manga_app.accounts import lists, progress, repository, unread
from manga_app.catalogue.models import Chapter
from tests.unit.accounts.accounts_db import T0, add_series, two_users, user

VOL = lists.VOLUME_START


def _figures(session, uid) -> dict[str, unread.SeriesFigures]:
    return {row.slug: row for row in unread.account_library(session=session, uid=uid)}


def test_unread_counts_units_after_the_furthest_finished_one(session):
    a, b = two_users(session)
    tag = uuid.uuid4().hex[:6]
    chapters, volumes, fresh = f"c-{tag}", f"v-{tag}", f"f-{tag}"
    add_series(session, chapters, {n * 100: "" for n in range(1, 11)})
    add_series(session, volumes, {VOL + n * 100: "" for n in range(1, 6)})
    add_series(session, fresh, {100: "", 200: "", 300: ""})
    for slug in (chapters, volumes, fresh):
        repository.follow(session=session, uid=a, slug=slug, now=T0)
    # Chapters 1 and 4 read to the end, 6 left part-way: unread are 5..10.
    for number, finished in ((100, True), (400, True), (600, False)):
        progress.record_progress(session=session, uid=a, slug=chapters, chapter_hundredths=number, page=0, offset=0.0,
                                 at=T0 + timedelta(hours=1), finished=finished)
    progress.record_progress(session=session, uid=a, slug=volumes, chapter_hundredths=VOL + 200, page=0, offset=0.0,
                             at=T0 + timedelta(hours=1), finished=True)
    # b's reading changes nothing of a's figures.
    progress.record_progress(session=session, uid=b, slug=fresh, chapter_hundredths=300, page=0, offset=0.0, at=T0, finished=True)
    found = _figures(session, a)
    assert (found[chapters].unread, found[chapters].in_volumes) == (6, False)
    assert (found[volumes].unread, found[volumes].in_volumes) == (3, True)
    assert (found[fresh].unread, found[fresh].in_volumes) == (3, False)
    assert lists.unread_label(found[volumes].unread, found[volumes].in_volumes) == "未読3巻"
    assert _figures(session, b) == {}


def test_an_update_shows_until_the_series_is_opened(session):
    a, _ = two_users(session)
    slug = f"u-{uuid.uuid4().hex[:6]}"
    series = add_series(session, slug, {100: ""}, updated=T0)
    repository.follow(session=session, uid=a, slug=slug, now=T0 + timedelta(minutes=1))
    assert not _figures(session, a)[slug].updated
    session.add(Chapter(series_id=series.id, number_hundredths=200, published_at=T0 + timedelta(hours=2), page_count=1,
                        source_path="x", fingerprint=f"{slug}200", created_at=T0))
    session.flush()
    assert _figures(session, a)[slug].updated and _figures(session, a)[slug].unread == 2
    repository.mark_opened(session=session, uid=a, slug=slug, now=T0 + timedelta(hours=3))
    assert not _figures(session, a)[slug].updated


def test_a_status_is_set_changed_and_kept_through_a_guest_merge(session):
    anon, google = f"anon-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    repository.upsert_user(session=session, user=user(anon, anonymous=True))
    repository.upsert_user(session=session, user=user(google))
    assert repository.set_status(session=session, uid=anon, slug="wanted", status=lists.WANT) is None  # follows it
    repository.follow(session=session, uid=anon, slug="both", now=T0)
    assert repository.set_status(session=session, uid=anon, slug="both", status=lists.PAUSED) == lists.READING
    repository.follow(session=session, uid=google, slug="both", now=T0, status=lists.FINISHED)
    repository.merge_user(session=session, source_uid=anon, target_uid=google)
    assert repository.statuses(session=session, uid=google) == {"wanted": lists.WANT, "both": lists.FINISHED}


def test_a_status_past_the_follow_limit_is_refused(session, monkeypatch):
    a, _ = two_users(session)
    monkeypatch.setattr(repository, "MAX_FOLLOWS", 1)
    repository.follow(session=session, uid=a, slug="x")
    with pytest.raises(LookupError):
        repository.set_status(session=session, uid=a, slug="y", status=lists.WANT)
    assert repository.statuses(session=session, uid=a) == {"x": lists.READING}


def test_a_browser_library_is_counted_from_its_read_marks(session):
    slug = f"b-{uuid.uuid4().hex[:6]}"
    add_series(session, slug, {100: "", 200: "", 300: ""}, updated=T0 + timedelta(hours=2))
    entry = unread.BrowserEntry(slug, lists.WANT, T0, (200,), T0 + timedelta(hours=1))
    [found] = unread.browser_library(session=session, entries=[entry])
    assert (found.unread, found.status, found.updated) == (1, lists.WANT, True)
