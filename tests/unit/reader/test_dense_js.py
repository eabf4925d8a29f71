"""Which AVIF a page shows (assets/js/image_formats.js, pageAvif): the high-DPI
copy only where the page is drawn wider than the reader width's file can fill,
the data saver's when it is on, and the screen the first-page cookie carries."""

from __future__ import annotations

import json

import pytest

from tests.unit.node import JS, run_module

PAGE = {"avif": "a-w1200.avif", "saver_avif": "a-w720.avif", "hidpi_avif": "a-w1600.avif", "width": 1200, "height": 1800}
SPREAD = {**PAGE, "width": 1200, "height": 850}
PHONE = {"dpr": 3, "width": 390, "height": 844}
TABLET = {"dpr": 2, "width": 820, "height": 1180}
TABLET_WIDE = {"dpr": 2, "width": 1180, "height": 820}
DESKTOP = {"dpr": 1, "width": 1366, "height": 900}
DENSE_DESKTOP = {"dpr": 2, "width": 1920, "height": 1080}


def choose(page: dict, **options) -> str:
    return run_module(JS / "image_formats.js", f"return m.pageAvif({json.dumps(page)}, {json.dumps(options)});")


@pytest.mark.parametrize(
    ("page", "options", "expected"),
    [
        (PAGE, {"screen": PHONE}, "a-w1200.avif"),  # 390 x 3 = 1,170 px across
        (PAGE, {"screen": TABLET}, "a-w1600.avif"),  # 787 px (the height's bound) x 2
        (PAGE, {"screen": DESKTOP}, "a-w1200.avif"),  # 600 px tall-bound page at 1x
        (PAGE, {"screen": DENSE_DESKTOP}, "a-w1600.avif"),
        (PAGE, {"screen": TABLET_WIDE, "layout": {"double": True}}, "a-w1200.avif"),  # a page of a pair: 547 x 2
        (SPREAD, {"screen": TABLET_WIDE, "layout": {"double": True}}, "a-w1600.avif"),  # a spread stands alone
        (PAGE, {"screen": TABLET, "layout": {"mode": "vertical"}}, "a-w1600.avif"),  # the strip: 800 x 2
        (PAGE, {"screen": DESKTOP, "layout": {"fit": "width"}}, "a-w1600.avif"),
        (PAGE, {"screen": PHONE, "zoomed": True}, "a-w1600.avif"),  # zoomed: the full-size image
        (PAGE, {"screen": TABLET, "saver": True}, "a-w720.avif"),
        (PAGE, {"screen": PHONE, "saver": True, "zoomed": True}, "a-w1600.avif"),
        ({**PAGE, "hidpi_avif": ""}, {"screen": TABLET}, "a-w1200.avif"),  # a page narrower than 1,440 px
        (PAGE, {"screen": None}, "a-w1200.avif"),  # the server, with no screen in the cookie
    ],
    ids=["phone", "tablet", "desktop", "dense-desktop", "pair", "spread", "strip", "fit-width", "zoomed",
         "saver", "saver-zoomed", "narrow-page", "no-screen"],
)
def test_the_avif_a_page_shows(page: dict, options: dict, expected: str) -> None:
    assert choose(page, **options) == expected


def test_the_screen_goes_into_the_cookie_and_back() -> None:
    body = ("const text = m.screenText({dpr: 2.625, width: 412.4, height: 915});"
            "return [text, m.screenFromText('0:s/1:3:' + text), m.screenFromText(text), m.screenFromText('0:s/1:3'),"
            " m.screenText(null)];")
    screen = {"dpr": 2.63, "width": 412, "height": 915}
    assert run_module(JS / "image_formats.js", body) == ["2.63@412x915", screen, screen, None, ""]


@pytest.mark.parametrize(("cookie", "screen"), [("0:s/1:3:2.63@412x915", "2.63@412x915"), ("0:s/1:3", ""),
                                               ("0:s/1:3:2.63@412", ""), ("garbage:2@1x1", "")])
def test_the_server_reads_the_screen_in_the_first_page_cookie(cookie: str, screen: str) -> None:
    from manga_app.reader import rules

    assert rules.first_page_screen(cookie) == screen
