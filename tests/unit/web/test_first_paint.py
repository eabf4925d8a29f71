"""manga_app.web.first_paint: the reader's first page written by the server
must be the page the reader will show, and safe to inline."""

from __future__ import annotations

import re

from manga_app.web import first_paint

READER_PAGE = {
    "key": "s/1", "slug": "s", "number": "1", "url": "/media/ab/cd-w1200.webp", "saver_url": "/media/ab/cd-w720.webp",
    "width": 720, "height": 1024, "webtoon": False, "direction": "rtl", "visitor": None,
}


def _image(html: str) -> str:
    (image,) = re.findall(r"<img [^>]*>", html)
    return image


def test_a_manga_chapters_first_page_is_drawn_as_the_paged_reader_opens_it():
    html = first_paint.reader_html(READER_PAGE)
    # One element React never renders, so it hydrates the body past it.
    assert html.startswith('<reader-first-paint aria-hidden="true" class="reader-first-paint" data-mode="paged"')
    assert html.endswith("</reader-first-paint>") and html.count("<reader-first-paint") == 1
    # Right-to-left: a page wider than the screen overflows leftwards, as the reader scrolls it.
    assert '<div class="reader-stage reader-fit-auto" style="justify-content:flex-end"><div class="reader-unit reader-unit-rtl"><img ' in html
    image = _image(html)
    assert 'src="/media/ab/cd-w1200.webp"' in image
    assert 'width="720"' in image and 'height="1024"' in image and 'fetchpriority="high"' in image
    # Fit to the screen's width or height, whichever is less; dvh where the browser knows it.
    assert ('style="width:min(calc(100vw * 1), calc(100vh * 0.703125));'
            'width:min(calc(100vw * 1), calc(100dvh * 0.703125));height:auto"') in image


def test_a_left_to_right_chapter_is_centred_without_the_rtl_overflow():
    html = first_paint.reader_html({**READER_PAGE, "direction": "ltr"})
    assert '<div class="reader-stage reader-fit-auto"><div class="reader-unit reader-unit-ltr">' in html


def test_a_webtoon_chapters_first_page_is_drawn_at_the_top_of_the_strip():
    html = first_paint.reader_html({**READER_PAGE, "webtoon": True, "width": 800, "height": 4000})
    assert 'data-mode="vertical"' in html
    assert '<div><div class="reader-first-paint-bar"></div><div class="reader-strip reader-fit-auto"><img ' in html
    assert 'style="width:100%;height:auto"' in _image(html)


def test_the_reader_first_paint_brings_its_styles_and_the_paint_gate():
    html = first_paint.reader_html(READER_PAGE)
    css = html[html.index("<style>") + len("<style>"): html.index("</style>")]
    assert ".reader-first-paint {" in css and "/*" not in css
    (script,) = re.findall(r"<script>(.*?)</script>", html, re.DOTALL)
    assert script.startswith("(function(self){try{") and script.endswith("}finally{self.remove()}})(document.currentScript)")
    assert "window.__firstPaint = paintGate(watchReaderFirstPaint(self.parentNode))" in script
    # The script is the element's last child: the page it watches is parsed before it runs.
    assert html.index("<script>") > html.index("<img ")


def test_reader_first_paint_values_are_escaped():
    html = first_paint.reader_html({**READER_PAGE, "url": '/media/a"><script>alert(1)</script>.webp'})
    assert "alert(1)</script>" not in html and html.count("<script>") == 1
