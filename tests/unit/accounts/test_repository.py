"""User and follow queries on real SQLite and PostgreSQL: each user sees and
changes only their own rows; an anonymous account merges into a Google one."""

from __future__ import annotations

import uuid
from datetime import timedelta

from manga_app.accounts import progress, repository
from tests.unit.accounts.accounts_db import T0, two_users, user


def test_follows_belong_to_one_user(session):
    a, b = two_users(session)
    assert repository.follow(session=session, uid=a, slug="one", now=T0)
    assert repository.follow(session=session, uid=a, slug="two", now=T0 + timedelta(seconds=1))
    assert not repository.follow(session=session, uid=a, slug="one")  # already followed
    assert repository.followed_slugs(session=session, uid=a) == ["two", "one"]
    assert repository.followed_slugs(session=session, uid=b) == []
    # b unfollowing a's series changes nothing of a's
    assert not repository.unfollow(session=session, uid=b, slug="one")
    assert repository.is_following(session=session, uid=a, slug="one")
    assert repository.unfollow(session=session, uid=a, slug="one")
    assert repository.followed_slugs(session=session, uid=a) == ["two"]


def test_an_anonymous_account_merges_into_a_google_account(session):
    anon, google = f"anon-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    repository.upsert_user(session=session, user=user(anon, anonymous=True))
    repository.upsert_user(session=session, user=user(google))
    repository.follow(session=session, uid=anon, slug="anon-series")
    repository.follow(session=session, uid=google, slug="google-series")
    progress.record_progress(session=session, uid=anon, slug="s", chapter_hundredths=100, page=7, offset=0.0, at=T0 + timedelta(minutes=9))
    progress.record_progress(session=session, uid=google, slug="s", chapter_hundredths=100, page=3, offset=0.0, at=T0)
    # The Google account removed "gone" after the guest read it: it stays removed.
    progress.record_progress(session=session, uid=anon, slug="gone", chapter_hundredths=100, page=1, offset=0.0, at=T0)
    progress.remove_history(session=session, uid=google, slug="gone", now=T0 + timedelta(minutes=1))
    repository.merge_user(session=session, source_uid=anon, target_uid=google)
    assert set(repository.followed_slugs(session=session, uid=google)) == {"anon-series", "google-series"}
    [row] = progress.progress_rows(session=session, uid=google)
    assert (row.series_slug, row.page) == ("s", 7)  # the anonymous device read later
    assert repository.get_user(session=session, uid=anon) is None
    assert repository.followed_slugs(session=session, uid=anon) == []


def test_upgrading_an_anonymous_user_keeps_the_row_and_fills_the_profile(session):
    uid = f"u-{uuid.uuid4().hex[:8]}"
    repository.upsert_user(session=session, user=user(uid, anonymous=True))
    row = repository.upsert_user(session=session, user=user(uid))
    assert (row.is_anonymous, row.email) == (False, f"{uid}@example.com")


def test_follows_are_capped(session, monkeypatch):
    a, _ = two_users(session)
    monkeypatch.setattr(repository, "MAX_FOLLOWS", 2)
    assert [repository.follow(session=session, uid=a, slug=s) for s in ("x", "y", "z")] == [True, True, False]


def test_a_series_counts_the_accounts_following_it(session):
    a, b = two_users(session)
    assert repository.count_followers(session=session, slug="one") == 0
    repository.follow(session=session, uid=a, slug="one")
    repository.follow(session=session, uid=b, slug="one")
    repository.follow(session=session, uid=b, slug="two")
    assert [repository.count_followers(session=session, slug=s) for s in ("one", "two", "three")] == [2, 1, 0]
    repository.unfollow(session=session, uid=a, slug="one")
    assert repository.count_followers(session=session, slug="one") == 1
