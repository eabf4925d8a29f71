"""The reader's overlay on a phone: out of the way until the reader asks for
it, small, one save control, the next chapter on the side reading goes to,
and every part of the reader inside a landmark (axe-core's `region`)."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from tests.e2e.conftest import ROOT
from tests.e2e.reader_helpers import counter, open_chapter, series_with_chapters
from tests.e2e.touch import Fingers

AXE = ROOT / "tools/testing/node_modules/axe-core/axe.min.js"


def _box(page: Page, selector: str) -> dict:
    box = page.locator(selector).bounding_box()
    assert box is not None, f"{selector} is not on screen"
    return box


def test_the_overlay_opens_on_a_tap_stays_small_and_puts_the_next_chapter_where_reading_goes(
    base_url: str, server_env, phone: Page
) -> None:
    slug = series_with_chapters(server_env, "rtl", 2)
    open_chapter(phone, f"{base_url}/{slug}-ch-1")
    overlay = phone.locator(".reader-overlay")
    # Reading starts on the page, not under a menu.
    expect(overlay).to_have_attribute("data-visible", "false")
    Fingers(phone).tap(195, 422)
    expect(overlay).to_have_attribute("data-visible", "true")

    # Right to left: the slider fills from the right, and the next chapter is on the left.
    slider, following = _box(phone, ".reader-slider"), _box(phone, ".reader-overlay .reader-next")
    preceding = _box(phone, ".reader-overlay .reader-prev")
    assert following["x"] + following["width"] <= slider["x"] <= slider["x"] + slider["width"] <= preceding["x"]
    # One save control, and the bottom panel leaves most of the page to the page.
    expect(overlay.get_by_role("button", name=re.compile("保存"))).to_have_count(1)
    expect(overlay.get_by_test_id("offline-save-next")).to_have_count(0)
    panel = _box(phone, ".reader-overlay-foot")
    assert panel["height"] <= 0.2 * 844, f"the bottom panel covers {panel['height'] / 844:.0%} of the screen"

    # The next chapter opens without the menu over it.
    overlay.locator(".reader-next").click()
    expect(phone).to_have_url(re.compile(rf"/{slug}-ch-(?!1\b)[0-9.]+(-[a-z0-9-]+)?$"))
    expect(counter(phone)).to_have_text(re.compile(r"^1 / \d+$"))
    expect(phone.locator(".reader-root")).to_have_attribute("data-interactive", "true")
    expect(phone.locator(".reader-overlay")).to_have_attribute("data-visible", "false")


def test_every_part_of_the_reader_is_inside_a_landmark(base_url: str, server_env, phone: Page) -> None:
    slug = series_with_chapters(server_env, "rtl", 2)
    open_chapter(phone, f"{base_url}/{slug}-ch-1")
    Fingers(phone).tap(195, 422)
    expect(phone.locator(".reader-overlay")).to_have_attribute("data-visible", "true")
    phone.evaluate(AXE.read_text() + "\n;0")  # through DevTools: the page's CSP is not asked
    violations = phone.evaluate(
        "() => axe.run(document, {runOnly: ['region', 'landmark-unique', 'landmark-no-duplicate-contentinfo']})"
        ".then(r => r.violations.map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', ')))"
    )
    assert violations == []
