"""The end of a chapter as a reader meets it: reached by swipes or keys, the
next chapter a tap or Enter away (in both reading directions), いいね counted
once per reader, the series followed from the card, its chapter list one
tap away, and what readers of the series also read."""

from __future__ import annotations

import random
import re
import time
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from manga_app.core.routes import manga_url
from tests.e2e.conftest import DESKTOP, TOUCH, guarded_context
from tests.e2e.held_sign_in import HeldSignIn
from tests.e2e.test_accounts import header_menu, new_device, open_page, sign_in_with_google
from tests.e2e.reader_helpers import choose, chapter_numbers, db, imported_item, manifest, open_chapter, series_with_chapters
from tests.e2e.touch import Fingers

ALSO_READ_HEADING = "この作品を読んだ人はこんな作品も読んでいます"


def _forward_key(direction: str) -> str:
    return "ArrowLeft" if direction == "rtl" else "ArrowRight"


def _to_the_end_by_keys(page: Page, direction: str) -> None:
    page.keyboard.press("End")
    page.keyboard.press(_forward_key(direction))
    expect(page.locator(".reader-end")).to_be_in_viewport()


def _likes_in_db(server_env, slug: str, number: str) -> int:
    with db(server_env) as connection:
        found = connection.execute(
            "select coalesce(chapter_like_count.likes, 0) from chapter join series on series.id = chapter.series_id "
            "left join chapter_like_count on chapter_like_count.chapter_id = chapter.id "
            "where series.slug = ? and chapter.number_hundredths = ?",
            (slug, round(float(number) * 100)),
        ).fetchone()
    return found[0]


def test_swipes_reach_the_end_on_a_phone_and_a_tap_on_the_next_chapter_continues(base_url, server_env, phone: Page) -> None:
    slug = series_with_chapters(server_env, "rtl", 2)
    first, second = chapter_numbers(server_env, slug)[:2]
    open_chapter(phone, f"{base_url}/{slug}-ch-{first}")
    fingers = Fingers(phone)
    for _ in range(len(manifest(server_env, slug, first)) + 2):
        if phone.locator(".reader-end").count():
            break
        fingers.swipe((40, 420), (360, 420))  # right to left reading: the finger drags the page to the right
    end = phone.locator(".reader-end")
    expect(end).to_be_in_viewport()
    expect(end.get_by_test_id("end-like")).to_be_enabled()  # the card's own state has arrived
    # The reader looks at the card before tapping. Chromium turns a touch that
    # comes within about 0.7 s of the last swipe into no click at all (seen: the
    # touchstart and touchend reach the button, not prevented, and no click
    # follows, in 2 of 7 runs at 0.6 s and none of 5 at 2.5 s).
    phone.wait_for_timeout(2000)
    button = end.get_by_test_id("end-next")
    expect(button).to_contain_text("次の話へ")
    box = button.bounding_box()
    assert box["height"] >= 56 and box["width"] >= 300, box  # the obvious action: a thumb's size
    fingers.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    phone.wait_for_url(re.compile(rf"/{slug}-ch-{second}(-[a-z0-9-]+)?$"))
    expect(phone.locator(".reader-root img.reader-page").first).to_be_visible()


@pytest.mark.parametrize("layout", ["rtl", "ltr", "vertical"])
def test_enter_at_the_end_continues_to_the_next_chapter_and_does_nothing_before(base_url, server_env, desktop: Page, layout) -> None:
    slug = series_with_chapters(server_env, "rtl", 2)
    first, second = chapter_numbers(server_env, slug)[:2]
    open_chapter(desktop, f"{base_url}/{slug}-ch-{first}")
    if layout != "rtl":
        choose(desktop, ("めくる方向", "左から右") if layout == "ltr" else ("読み方", "縦スクロール"))
        expect(desktop.locator(".reader-root")).to_have_attribute("data-direction" if layout == "ltr" else "data-mode", layout)
    desktop.keyboard.press("Enter")  # mid-chapter: no page turns, no chapter is left
    expect(desktop.locator(".reader-root")).to_have_attribute("data-page", "0")
    assert re.search(rf"/{slug}-ch-{first}(-[a-z0-9-]+)?$", desktop.url)
    _to_the_end_by_keys(desktop, "ltr" if layout == "ltr" else "rtl")
    desktop.keyboard.press("Enter")
    desktop.wait_for_url(re.compile(rf"/{slug}-ch-{second}(-[a-z0-9-]+)?$"))
    expect(desktop.locator(".reader-root img.reader-page").first).to_be_visible()


def _open_end(page: Page, url: str, direction: str) -> None:
    open_chapter(page, url)
    _to_the_end_by_keys(page, direction)


def _like_count(page: Page):
    return page.locator(".reader-end").get_by_test_id("end-like-count")


def test_a_like_counts_once_per_reader_and_toggles_back(base_url, server_env, browser: Browser) -> None:
    slug = series_with_chapters(server_env, "rtl", 3)
    number = chapter_numbers(server_env, slug)[2]
    url = f"{base_url}/{slug}-ch-{number}"
    before = _likes_in_db(server_env, slug, number)
    with guarded_context(browser, **DESKTOP) as first_context, guarded_context(browser, **TOUCH) as second_context:
        first, second = first_context.new_page(), second_context.new_page()
        _open_end(first, url, "rtl")
        like = first.locator(".reader-end").get_by_test_id("end-like")
        expect(_like_count(first)).to_have_text(str(before))
        like.click()
        expect(like).to_have_attribute("aria-pressed", "true")
        expect(_like_count(first)).to_have_text(str(before + 1))
        # A second reader: their own like adds one.
        _open_end(second, url, "rtl")
        second_like = second.locator(".reader-end").get_by_test_id("end-like")
        expect(second_like).to_be_enabled()  # the card's own state has arrived
        expect(second_like).to_have_attribute("aria-pressed", "false")
        box = second_like.bounding_box()
        Fingers(second).tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(_like_count(second)).to_have_text(str(before + 2))
        assert _likes_in_db(server_env, slug, number) == before + 2
        # The first reader comes back: still liked, and a tap takes it back; again, it returns.
        _open_end(first, url, "rtl")
        expect(like).to_have_attribute("aria-pressed", "true")
        expect(_like_count(first)).to_have_text(str(before + 2))
        like.click()
        expect(like).to_have_attribute("aria-pressed", "false")
        expect(_like_count(first)).to_have_text(str(before + 1))
        like.click()
        expect(_like_count(first)).to_have_text(str(before + 2))
        like.click()
        expect(_like_count(first)).to_have_text(str(before + 1))
        assert _likes_in_db(server_env, slug, number) == before + 1


def test_a_like_tapped_before_the_page_knows_the_reader_counts_once_it_does(base_url, server_env, browser: Browser) -> None:
    """Who the reader is comes a moment after the page (the Firebase client's
    settings, then its report; on a slow phone, its script too): a いいね
    tapped meanwhile is kept and counts once that is known, with no
    読み込み中です and nothing to tap again."""
    slug = series_with_chapters(server_env, "rtl", 1)
    number = chapter_numbers(server_env, slug)[0]
    before = _likes_in_db(server_env, slug, number)
    with guarded_context(browser, **TOUCH) as context:
        page = context.new_page()
        sign_in = HeldSignIn(page)
        _open_end(page, f"{base_url}/{slug}-ch-{number}", "rtl")
        like = page.locator(".reader-end").get_by_test_id("end-like")
        expect(like).to_be_enabled()
        like.click()
        page.wait_for_timeout(1000)  # the tap reaches the server, which cannot tell yet whose it is
        assert _likes_in_db(server_env, slug, number) == before
        sign_in.release()
        expect(like).to_have_attribute("aria-pressed", "true")
        expect(_like_count(page)).to_have_text(str(before + 1))
        assert _likes_in_db(server_env, slug, number) == before + 1
        expect(page.locator(".ant-notification-notice")).to_have_count(0)


def test_a_signed_in_reader_s_like_shows_on_a_card_reached_before_the_page_knows_them(
    base_url, server_env, browser: Browser, auth_emulator
) -> None:
    """いいね済み is the account's: a card reached in the page's first moment,
    before the sign-in arrives, shows it once it has."""
    slug = series_with_chapters(server_env, "rtl", 1)
    url = f"{base_url}/{slug}-ch-{chapter_numbers(server_env, slug)[0]}"
    with guarded_context(browser, **DESKTOP) as context:
        new_device(context)
        page = context.new_page()
        open_page(page, base_url + manga_url(slug))
        header_menu(page)
        sign_in_with_google(page, email=f"liker-{uuid.uuid4().hex[:6]}@example.com", name="いいね 次郎")
        expect(page.get_by_test_id("account-name")).to_have_text("いいね 次郎")
        _open_end(page, url, "rtl")
        like = page.locator(".reader-end").get_by_test_id("end-like")
        like.click()
        expect(like).to_have_attribute("aria-pressed", "true")
        sign_in = HeldSignIn(page)
        _open_end(page, url, "rtl")  # a reload: this browser alone has not liked it
        expect(like).to_be_enabled()
        page.wait_for_timeout(1000)  # the card's question reaches the server, which cannot tell yet who asks
        sign_in.release()
        expect(like).to_have_attribute("aria-pressed", "true")


def test_the_series_is_followed_and_its_chapters_listed_from_the_card(base_url, server_env, phone: Page) -> None:
    slug = series_with_chapters(server_env, "rtl", 2)
    numbers = chapter_numbers(server_env, slug)
    _open_end(phone, f"{base_url}/{slug}-ch-{numbers[0]}", "rtl")
    end = phone.locator(".reader-end")
    follow = end.get_by_test_id("follow-button")
    expect(follow).to_have_text("フォロー")
    follow.click()
    expect(follow).to_have_text("フォロー中")
    end.locator(".reader-end-chapters summary").click()
    links = end.locator(".reader-end-chapters a")
    expect(links).to_have_count(len(numbers))
    expect(end.locator(".reader-end-chapters a[aria-current='page']")).to_have_count(1)
    links.last.click()
    phone.wait_for_url(re.compile(rf"/{slug}-ch-{numbers[-1]}(-[a-z0-9-]+)?$"))
    phone.goto(f"{base_url}/library")
    expect(phone.locator(f"a[href='/manga/{slug}']").first).to_be_visible()


def _readers_of(server_env, slug: str) -> int:
    with db(server_env) as connection:
        return connection.execute(
            "select count(distinct chapter_view.visitor) from chapter_view join chapter on chapter.id = chapter_view.chapter_id "
            "join series on series.id = chapter.series_id where series.slug = ?", (slug,)).fetchone()[0]


def _views_marked(server_env, slug: str, at_least: int) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if _readers_of(server_env, slug) >= at_least:
            return
        time.sleep(0.3)
    pytest.fail(f"{slug} was never counted as read by {at_least} visitors")


def test_the_card_shows_what_other_readers_of_the_series_also_read(base_url, server_env, browser: Browser, tmp_path: Path) -> None:
    # A new series nobody has read, and a demo series (read by others below).
    name = "".join(random.choice("あいうえおかきくけこさしすせそ") for _ in range(6))
    made = imported_item(base_url, server_env, tmp_path, f"読者見本{name}", (("第1話", 2), ("第2話", 3)))
    new_slug = made["slug"]
    other = series_with_chapters(server_env, "rtl", 1)
    for reader in range(2):
        with guarded_context(browser) as context:
            # Each opening counts once the app has connected (a server-rendered
            # page shows before): the reader stays until it has.
            page = context.new_page()
            others = _readers_of(server_env, other)
            open_chapter(page, f"{base_url}/{other}-ch-{chapter_numbers(server_env, other)[0]}")
            _views_marked(server_env, other, others + 1)
            open_chapter(page, f"{base_url}/{new_slug}-ch-1")
            _views_marked(server_env, new_slug, reader + 1)
    with guarded_context(browser, **DESKTOP) as context:
        page = context.new_page()
        _open_end(page, f"{base_url}/{new_slug}-ch-2", "rtl")
        picks = page.locator(".reader-end-picks")
        expect(picks.get_by_role("heading")).to_have_text(ALSO_READ_HEADING)
        pick = picks.locator(f"a.reader-end-pick[href='/manga/{other}']")
        expect(pick).to_contain_text("読者がよく読んでいる")
        assert picks.locator("a.reader-end-pick").first.get_attribute("href") == f"/manga/{other}"
