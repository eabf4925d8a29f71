"""Notifications on real SQLite and PostgreSQL: what is new to a reader is
worked out from publication times, the follow and the reader's one seen mark;
publishing writes nothing per follower."""

from __future__ import annotations

from datetime import timedelta

from sqlmodel import func, select

from manga_app.accounts import notifications, repository
from manga_app.accounts.models import Follow, UserAccount
from manga_app.catalogue.models import Chapter
from tests.unit.accounts.accounts_db import T0, add_series, two_users


def publish(session, series, hundredths: int, at, kind: str = "chapter") -> None:
    session.add(Chapter(series_id=series.id, number_hundredths=hundredths, title="", slug="", published_at=at, kind=kind,
                        page_count=1, source_path="x", fingerprint=f"{series.slug}-{hundredths}", created_at=at))
    session.flush()


def test_units_published_after_the_follow_are_unseen_until_the_list_is_read(session):
    a, b = two_users(session)
    neko = add_series(session, "neko", {100: "一", 200: "二"})  # published at T0
    repository.follow(session=session, uid=a, slug="neko", now=T0 + timedelta(hours=1))
    assert notifications.unseen_count(session=session, uid=a) == 0  # chapters before the follow are not news
    publish(session, neko, 300, T0 + timedelta(days=1))
    publish(session, neko, 100_000_100, T0 + timedelta(days=2), kind="volume")
    assert notifications.unseen_count(session=session, uid=a) == 2
    assert notifications.unseen_count(session=session, uid=b) == 0  # b follows nothing
    found = notifications.recent(session=session, uid=a)
    assert [(row.series_slug, row.unit.label, row.seen) for row in found] == [("neko", "第1巻", False), ("neko", "第3話", False)]
    assert found[0].unit.url == "/neko-ch-1-vol"
    notifications.mark_seen(session=session, uid=a, at=found[0].unit.published_at)
    assert notifications.unseen_count(session=session, uid=a) == 0
    assert [row.seen for row in notifications.recent(session=session, uid=a)] == [True, True]
    publish(session, neko, 400, T0 + timedelta(days=3))
    assert notifications.unseen_count(session=session, uid=a) == 1


def test_the_mark_never_moves_back_and_other_series_do_not_count(session):
    a, _ = two_users(session)
    neko, inu = add_series(session, "neko", {}), add_series(session, "inu", {})
    repository.follow(session=session, uid=a, slug="neko", now=T0)
    publish(session, neko, 100, T0 + timedelta(days=2))
    publish(session, inu, 100, T0 + timedelta(days=2))  # not followed
    notifications.mark_seen(session=session, uid=a, at=T0 + timedelta(days=5))
    notifications.mark_seen(session=session, uid=a, at=T0 + timedelta(days=1))  # an older list read later
    assert notifications.seen_at(session=session, uid=a) == T0 + timedelta(days=5)
    assert notifications.unseen_count(session=session, uid=a) == 0


def test_publishing_to_a_followed_series_writes_no_row_per_follower(session):
    a, b = two_users(session)
    neko = add_series(session, "neko", {})
    for uid in (a, b):
        repository.follow(session=session, uid=uid, slug="neko", now=T0)
    rows_before = (session.exec(select(func.count()).select_from(Follow)).one(),
                   session.exec(select(func.max(UserAccount.updated_at))).one())
    publish(session, neko, 100, T0 + timedelta(days=1))
    assert (session.exec(select(func.count()).select_from(Follow)).one(),
            session.exec(select(func.max(UserAccount.updated_at))).one()) == rows_before
    assert notifications.unseen_count(session=session, uid=a) == notifications.unseen_count(session=session, uid=b) == 1
