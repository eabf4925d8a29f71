"""「この作品を読んだ人は…」 from real SQLite and PostgreSQL: readers of a
series through reading history and counted views, an account counted once
whichever way it was seen, series nobody else read left out."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
from sqlmodel import Session

from manga_app.accounts.models import ReadingProgress, UserAccount
from manga_app.core.db import make_engine, migrate
from manga_app.reader import also_read
from manga_app.engagement import view_counts
from tests.postgres import scratch_database
from tests.unit.reader.engagement_db import SECRET, T0, TODAY, make_series



@pytest.fixture(params=["sqlite", "postgresql"])
def engine(request, tmp_path):
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'also.db'}"
        migrate(url)
        engine = make_engine(url)
        yield engine
        engine.dispose()
        return
    with scratch_database("also_read_test") as url:
        engine = make_engine(url)
        yield engine
        engine.dispose()


def viewed(session: Session, made, keys: list[str], *slugs: str) -> None:
    for slug in slugs:
        view_counts.record_view(session=session, series_id=made[slug][0], chapter_id=made[slug][1], visitors=keys,
                                address="", day=TODAY)


def positions(session: Session, uid: str, *slugs: str) -> None:
    if session.get(UserAccount, uid) is None:
        session.add(UserAccount(uid=uid))
        session.flush()
    for step, slug in enumerate(slugs):
        session.add(ReadingProgress(uid=uid, series_slug=slug, chapter_hundredths=100, updated_at=T0 + timedelta(minutes=step)))
    session.commit()


def test_readers_through_views_and_history_and_an_account_counted_once(engine):
    prefix = uuid.uuid4().hex[:6]
    s, t, u, lone = (f"{prefix}-{name}" for name in ("s", "t", "u", "lone"))
    with Session(engine) as session:
        made = make_series(session, s, t, u, lone)
        # A browser not signed in read S and T (counted views).
        viewed(session, made, [view_counts.visitor_key(SECRET, "b", "tab-1")], s, t)
        # An account read S and T on the server's history, and U through a view while signed in.
        positions(session, f"{prefix}-uid", s, t)
        viewed(session, made, [view_counts.visitor_key(SECRET, "u", f"{prefix}-uid")], u)
        # Someone who read only LONE is no reader of S.
        viewed(session, made, [view_counts.visitor_key(SECRET, "b", "tab-2")], lone)
        assert also_read.also_read(session=session, series_id=made[s][0], slug=s, secret=SECRET) == {t: 2, u: 1}
        # From T's side: both readers of T read S; the account read U too.
        assert also_read.also_read(session=session, series_id=made[t][0], slug=t, secret=SECRET) == {s: 2, u: 1}
        assert also_read.also_read(session=session, series_id=made[lone][0], slug=lone, secret=SECRET) == {}
