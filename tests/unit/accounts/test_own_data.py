"""A reader's data, found in the database itself, on real SQLite and
PostgreSQL: the export holds every row of the account and no secret, and a
deletion takes every row of the account and nothing of anyone else's."""

from __future__ import annotations

from datetime import date

from sqlmodel import select

from manga_app.accounts import opds_keys, own_data, progress, repository
from manga_app.accounts.models import Follow, UserAccount
from manga_app.catalogue.models import Chapter
from manga_app.engagement.view_counts import record_view
from tests.unit.accounts.accounts_db import T0, add_series, two_users

DAY = date(2026, 11, 28)


def _reader_with_everything(session, uid: str, other: str) -> None:
    series = add_series(session, f"s-{uid}", {100: "一", 200: "二"})
    chapter = session.exec(select(Chapter).where(Chapter.series_id == series.id)).first()
    for who in (uid, other):
        repository.follow(session=session, uid=who, slug=series.slug)
        progress.mark_read(session=session, uid=who, slug=series.slug, chapter_hundredths=100, at=T0)
        opds_keys.create_key(session=session, uid=who)
        record_view(session=session, series_id=series.id, chapter_id=chapter.id, visitors=[f"v-{who}"], address="", day=DAY)
    session.flush()


def test_the_export_holds_every_row_of_the_account_and_no_secret(session):
    a, b = two_users(session)
    _reader_with_everything(session, a, b)
    exported = own_data.export(session=session, uid=a, visitor=f"v-{a}")
    assert exported["account"]["email"] == f"{a}@example.com"
    tables = exported["tables"]
    assert [row["series_slug"] for row in tables["follow"]] == [f"s-{a}"]
    assert [row["chapter_hundredths"] for row in tables["reading_progress"]] == [100]
    assert len(tables["opds_key"]) == 1 and "key_hash" not in tables["opds_key"][0]
    assert len(tables["chapter_view"]) == 1
    assert "uid" not in tables["follow"][0] and "visitor" not in tables["chapter_view"][0]
    assert f"s-{b}" not in str(exported)


def test_deleting_takes_every_row_of_the_account_and_nothing_of_another(session):
    a, b = two_users(session)
    _reader_with_everything(session, a, b)
    before_b = own_data.export(session=session, uid=b, visitor=f"v-{b}")
    deleted = own_data.delete(session=session, uid=a, visitor=f"v-{a}")
    assert deleted == {"follow": 1, "reading_progress": 1, "opds_key": 1, "chapter_view": 1, "user_account": 1}
    assert own_data.export(session=session, uid=a, visitor=f"v-{a}") == {"account": None, "tables": {}}
    assert session.get(UserAccount, a) is None and not session.exec(select(Follow).where(Follow.uid == a)).all()
    assert own_data.export(session=session, uid=b, visitor=f"v-{b}") == before_b
    assert sorted(own_data.described(deleted)) == sorted([
        "フォロー: 1件", "読んだ位置と既読: 1件", "OPDSキー: 1件", "閲覧数の記録（今日と昨日）: 1件", "プロフィール（名前・メールアドレス）: 1件",
    ])
