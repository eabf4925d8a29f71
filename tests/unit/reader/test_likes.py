"""いいね on real SQLite and PostgreSQL: one per reader and chapter, set to
what the reader asked for (sent again, it changes nothing);
a reader signed in on several browsers is one reader; concurrent likes of
one reader count once; an address is capped; the count is its rows."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
import sqlalchemy as sa
from sqlmodel import Session

from manga_app.catalogue.models import Chapter
from manga_app.engagement import likes, view_counts
from manga_app.engagement.models import ChapterLike
from tests.unit.reader.engagement_db import SECRET, T0, TODAY, account, browser, db_url, engine, series_chapter  # noqa: F401

@pytest.fixture
def chapter(series_chapter) -> int:
    return series_chapter[1]


def like(engine, chapter, keys, liked=True, *, address="", day=TODAY, cap=likes.MAX_LIKES_PER_ADDRESS) -> likes.LikeState:
    with Session(engine) as session:
        return likes.set_like(session=session, chapter_id=chapter, keys=keys, liked=liked, address=address, day=day,
                              max_per_address=cap)


def shown(engine, chapter, keys) -> likes.LikeState:
    with Session(engine) as session:
        return likes.state_of(session=session, chapter_id=chapter, keys=keys)


def test_two_readers_make_two_likes_and_a_reader_takes_theirs_back(engine, chapter):
    assert shown(engine, chapter, [browser("a")]) == likes.LikeState(0, False)
    assert like(engine, chapter, [browser("a")]) == likes.LikeState(1, True)
    assert like(engine, chapter, [browser("b")]) == likes.LikeState(2, True)
    assert shown(engine, chapter, [browser("a")]) == likes.LikeState(2, True)
    assert like(engine, chapter, [browser("a")], False) == likes.LikeState(1, False)
    assert like(engine, chapter, [browser("a")]) == likes.LikeState(2, True)


def test_an_account_is_one_reader_on_every_browser(engine, chapter):
    assert like(engine, chapter, [account("u1"), browser("phone")]) == likes.LikeState(1, True)
    # The laptop's browser is new, the account is not: it is liked there, and taking it back there counts.
    assert shown(engine, chapter, [account("u1"), browser("laptop")]) == likes.LikeState(1, True)
    assert like(engine, chapter, [account("u1"), browser("laptop")], False) == likes.LikeState(0, False)
    assert shown(engine, chapter, [account("u1"), browser("phone")]) == likes.LikeState(0, False)


def test_a_like_given_before_signing_in_is_the_accounts_and_the_count_stays_its_rows(engine, chapter):
    like(engine, chapter, [browser("tab")])
    assert shown(engine, chapter, [account("u2"), browser("tab")]) == likes.LikeState(1, True)
    assert like(engine, chapter, [account("u2"), browser("tab")], False) == likes.LikeState(0, False)
    with Session(engine) as session:
        rows = session.execute(sa.select(sa.func.count()).where(ChapterLike.chapter_id == chapter)).scalar_one()
    assert rows == 0


def test_a_like_or_its_taking_back_sent_again_changes_nothing(engine, chapter):
    """A browser sends again what it could not see answered (a connection
    lost in flight): the second like, or the second taking back, is a no-op."""
    assert like(engine, chapter, [browser("a")]) == likes.LikeState(1, True)
    assert like(engine, chapter, [browser("a")]) == likes.LikeState(1, True)
    assert like(engine, chapter, [account("u3"), browser("b")]) == likes.LikeState(2, True)
    assert like(engine, chapter, [account("u3"), browser("c")]) == likes.LikeState(2, True)
    assert like(engine, chapter, [browser("a")], False) == likes.LikeState(1, False)
    assert like(engine, chapter, [browser("a")], False) == likes.LikeState(1, False)
    with Session(engine) as session:
        rows = session.execute(sa.select(sa.func.count()).where(ChapterLike.chapter_id == chapter)).scalar_one()
        assert rows == likes.count_of(session=session, chapter_id=chapter) == 1


def test_concurrent_likes_of_one_reader_count_once(engine, chapter):
    start = threading.Barrier(6)
    errors: list[BaseException] = []

    def like() -> None:
        start.wait()
        try:
            with Session(engine) as session:
                likes.set_like(session=session, chapter_id=chapter, keys=[browser("same")], liked=True, address="", day=TODAY)
        except BaseException as error:  # noqa: BLE001 - collected for the assertion
            errors.append(error)

    threads = [threading.Thread(target=like) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    with Session(engine) as session:
        rows = session.execute(sa.select(sa.func.count()).where(ChapterLike.chapter_id == chapter)).scalar_one()
        assert likes.count_of(session=session, chapter_id=chapter) == rows


def test_a_script_dropping_its_browser_id_is_capped_per_address_and_day(engine, chapter):
    address = view_counts.address_key(SECRET, "203.0.113.7")
    results = []
    for index in range(5):
        try:
            results.append(like(engine, chapter, [browser(f"script-{index}")], address=address, cap=3).likes)
        except likes.AddressCapReached:
            results.append(None)
    assert results == [1, 2, 3, None, None]
    # Another address, and the same one the next day, are not held back.
    assert like(engine, chapter, [browser("neighbour")], address=view_counts.address_key(SECRET, "198.51.100.1"), cap=3).likes == 4
    assert like(engine, chapter, [browser("script-9")], address=address, cap=3, day=TODAY + timedelta(days=1)).likes == 5
    # Taking a like back is never capped.
    assert like(engine, chapter, [browser("script-0")], False, address=address, cap=3) == likes.LikeState(4, False)


def test_no_key_is_refused_and_identifiers_are_stored_only_as_keyed_hashes(engine, chapter):
    with pytest.raises(ValueError):
        like(engine, chapter, ["", ""])
    like(engine, chapter, [account("visible-uid"), browser("visible-id")], address=view_counts.address_key(SECRET, "192.0.2.5"))
    with Session(engine) as session:
        rows = session.execute(sa.select(ChapterLike.liker, ChapterLike.address).where(ChapterLike.chapter_id == chapter)).all()
    assert len(rows) == 1 and rows[0][0] == account("visible-uid")
    assert "visible" not in " ".join(rows[0]) and "192.0.2.5" not in " ".join(rows[0])


def test_a_deleted_chapter_takes_its_likes_along(engine, chapter):
    like(engine, chapter, [browser("gone")])
    with Session(engine) as session:
        session.delete(session.get(Chapter, chapter))
        session.commit()
        assert likes.count_of(session=session, chapter_id=chapter) == 0
        left = session.execute(sa.select(sa.func.count()).where(ChapterLike.chapter_id == chapter)).scalar_one()
    assert left == 0


def test_a_guests_likes_become_the_accounts_it_signs_in_to_and_a_chapter_both_liked_keeps_one(engine, chapter):
    with Session(engine) as session:
        other = Chapter(series_id=session.get(Chapter, chapter).series_id, number_hundredths=200, title="", slug="",
                        published_at=T0, page_count=3)
        session.add(other)
        session.commit()
        second = other.id
    like(engine, chapter, [account("guest")])
    like(engine, second, [account("guest")])
    like(engine, chapter, [account("google")])
    with Session(engine) as session:
        likes.merge_likes(session=session, source=account("guest"), target=account("google"))
        session.commit()
    assert shown(engine, chapter, [account("google")]) == likes.LikeState(1, True)
    assert shown(engine, second, [account("google")]) == likes.LikeState(1, True)
    assert shown(engine, chapter, [account("guest")]).liked is False
