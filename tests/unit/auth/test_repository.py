"""Account queries on real SQLite and PostgreSQL: each user sees and changes
only their own rows; positions merge newest-wins; an anonymous account merges
into a Google one."""

from __future__ import annotations

import os
import uuid
from datetime import UTC, datetime, timedelta

import psycopg
import pytest
import sqlalchemy as sa
from sqlmodel import Session

from manga_app.auth import repository
from manga_app.auth.verify import VerifiedUser
from manga_app.catalogue.db import make_engine, migrate
from manga_app.catalogue.models import Chapter, Series

ADMIN_URL = os.environ.get("MANGA_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test")
T0 = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db_url(request, tmp_path_factory):
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path_factory.mktemp('accounts') / 'accounts.db'}"
        migrate(url)
        yield url
        return
    if os.environ.get("MANGA_SKIP_POSTGRES") == "1":
        pytest.skip("MANGA_SKIP_POSTGRES=1")
    name = f"accounts_test_{uuid.uuid4().hex[:12]}"
    try:
        admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as exc:
        pytest.fail(f"PostgreSQL unreachable at {ADMIN_URL} ({exc}); set MANGA_SKIP_POSTGRES=1 to skip")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            url = sa.engine.make_url(ADMIN_URL).set(database=name).render_as_string(hide_password=False)
            migrate(url)
            yield url
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def session(db_url):
    engine = make_engine(db_url)
    with Session(engine) as session:
        yield session
        session.rollback()
    engine.dispose()


def user(uid: str, *, anonymous: bool = False) -> VerifiedUser:
    return VerifiedUser(uid=uid, email="" if anonymous else f"{uid}@example.com", name=uid, avatar="",
                        is_anonymous=anonymous, provider="anonymous" if anonymous else "google.com")


def two_users(session) -> tuple[str, str]:
    a, b = f"a-{uuid.uuid4().hex[:8]}", f"b-{uuid.uuid4().hex[:8]}"
    repository.upsert_user(session=session, user=user(a))
    repository.upsert_user(session=session, user=user(b))
    return a, b


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


def test_the_newest_position_wins_whatever_order_writes_arrive_in(session):
    a, b = two_users(session)
    assert repository.record_progress(session=session, uid=a, slug="s", chapter_hundredths=300, page=9, offset=0.5, at=T0 + timedelta(minutes=5))
    assert not repository.record_progress(session=session, uid=a, slug="s", chapter_hundredths=300, page=2, offset=0.0, at=T0)
    [row] = repository.progress_rows(session=session, uid=a, slug="s")
    assert (row.page, row.offset, row.updated_at) == (9, 0.5, T0 + timedelta(minutes=5))
    assert repository.progress_rows(session=session, uid=b) == []


def test_history_is_one_row_per_series_newest_first_with_read_marks(session):
    a, b = two_users(session)
    for slug, chapter, minute in [("s", 100, 1), ("s", 200, 3), ("t", 100, 2)]:
        repository.record_progress(session=session, uid=a, slug=slug, chapter_hundredths=chapter, page=1, offset=0.0, at=T0 + timedelta(minutes=minute))
    rows = repository.history(session=session, uid=a)
    assert [(row.series_slug, row.chapter_hundredths, row.read) for row in rows] == [("s", 200, (100, 200)), ("t", 100, (100,))]
    assert repository.history(session=session, uid=b) == []
    assert repository.remove_history(session=session, uid=b, slug="s") == 0
    assert repository.remove_history(session=session, uid=a, slug="s") == 2
    assert [row.series_slug for row in repository.history(session=session, uid=a)] == ["t"]
    assert repository.clear_history(session=session, uid=a) == 1
    assert repository.history(session=session, uid=a) == []


def test_an_anonymous_account_merges_into_a_google_account(session):
    anon, google = f"anon-{uuid.uuid4().hex[:8]}", f"g-{uuid.uuid4().hex[:8]}"
    repository.upsert_user(session=session, user=user(anon, anonymous=True))
    repository.upsert_user(session=session, user=user(google))
    repository.follow(session=session, uid=anon, slug="anon-series")
    repository.follow(session=session, uid=google, slug="google-series")
    repository.record_progress(session=session, uid=anon, slug="s", chapter_hundredths=100, page=7, offset=0.0, at=T0 + timedelta(minutes=9))
    repository.record_progress(session=session, uid=google, slug="s", chapter_hundredths=100, page=3, offset=0.0, at=T0)
    repository.merge_user(session=session, source_uid=anon, target_uid=google)
    assert set(repository.followed_slugs(session=session, uid=google)) == {"anon-series", "google-series"}
    [row] = repository.progress_rows(session=session, uid=google)
    assert row.page == 7  # the anonymous device read later
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


def test_unread_counts_chapters_after_the_last_read(session):
    slug = f"series-{uuid.uuid4().hex[:8]}"
    series = Series(slug=slug, title=slug, title_key=slug, search_text=slug, created_at=T0, updated_at=T0)
    session.add(series)
    session.flush()
    for number in (100, 200, 250, 300):
        session.add(Chapter(series_id=series.id, number_hundredths=number, title="", slug=f"c{number}", published_at=T0,
                            page_count=1, source_path="x", fingerprint=f"{slug}{number}", created_at=T0))
    session.flush()
    assert repository.unread_counts(session=session, last_read={slug: 200}, slugs=[slug, "unknown"]) == {slug: 2, "unknown": 0}
    assert repository.unread_counts(session=session, last_read={}, slugs=[slug]) == {slug: 4}
