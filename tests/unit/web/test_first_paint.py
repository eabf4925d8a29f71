"""manga_app.web.first_paint: the title page painted by the server before the
app loads must be the page the app will show, and safe to inline."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from manga_app.catalogue.views import ChapterView, SeriesView
from manga_app.genre_page import GenrePage
from manga_app.search_page import SearchPage
from manga_app.state.browse import Card, Chip, PageLink, Part, TabLink
from manga_app.title_page import title_page
from manga_app.web import first_paint

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def series(**changes) -> SeriesView:
    values = dict(
        id=1, slug="yaoya", title="八百屋の勇者", alt_titles=("Yaoya no Yuusha",), authors=("青葉しげる",),
        artists=("青葉しげる", "森"), summary="大根で魔物を倒す。", status="ongoing", direction="rtl",
        cover="/media/c-cover320.webp", cover_small="/media/c-cover160.webp", genres=("アクション", "コメディ"),
        tags=("異世界",), views=12345, created_at=NOW - timedelta(days=400), updated_at=NOW - timedelta(hours=3),
        url="/manga/yaoya",
    )
    return SeriesView(**{**values, **changes})


def chapters(count: int) -> tuple[ChapterView, ...]:
    return tuple(
        ChapterView(number=str(n), title=f"第{n}の話", slug=f"c{n}", published_at=NOW - timedelta(days=count - n),
                    page_count=10, views=0, url=f"/yaoya-ch-{n}-c{n}")
        for n in range(1, count + 1)
    )


def test_the_article_shows_what_the_loaded_page_shows():
    html = first_paint.title_html(series(), chapters(3), now=NOW)
    page = title_page(series(), chapters(3), now=NOW)
    assert '<h1 class="title-name">八百屋の勇者</h1>' in html
    assert '<span class="alias">Yaoya no Yuusha</span>' in html
    # Authors and artists once each, as the app lists them.
    assert re.findall(r'<span class="author">(.*?)</span>', html) == ["青葉しげる", "森"]
    assert f"<dd>{page.views}</dd>" in html and "<dd>連載中</dd>" in html and "<dd>3時間前</dd>" in html
    assert 'srcset="/media/c-cover160.webp 160w, /media/c-cover320.webp 320w"' in html
    assert 'width="160" height="228"' in html
    assert '<a class="chip" href="/genre/%E3%82%A2%E3%82%AF%E3%82%B7%E3%83%A7%E3%83%B3">アクション</a>' in html
    assert '<a class="button-primary read-first" href="/yaoya-ch-1-c1">最初から読む</a>' in html
    assert '<span class="chapter-count">3話</span>' in html
    # Newest first, with the app's labels and relative times.
    assert re.findall(r'data-number="([^"]+)"', html) == ["3", "2", "1"]
    assert '<span class="chapter-number">第3話</span><span class="chapter-title">第3の話</span>' in html
    assert "2日前" in html


def test_no_whitespace_between_elements_as_react_renders_none():
    html = first_paint.title_html(series(), chapters(2), now=NOW)
    assert re.search(r">\s+<", html) is None


def test_long_chapter_lists_are_cut_but_counted_in_full():
    html = first_paint.title_html(series(), chapters(first_paint.CHAPTER_ROWS + 40), now=NOW)
    assert html.count('class="chapter-row"') == first_paint.CHAPTER_ROWS
    assert f'<span class="chapter-count">{first_paint.CHAPTER_ROWS + 40}話</span>' in html


def test_optional_parts_are_left_out_when_empty():
    html = first_paint.title_html(series(alt_titles=(), tags=(), cover_small=""), chapters(1), now=NOW)
    assert "title-aliases" not in html and "title-tags" not in html and "srcset" not in html
    assert 'src="/media/c-cover320.webp"' in html


@pytest.mark.parametrize("title", ['</script><script>alert(1)</script>', '"><img src=x onerror=alert(1)>', "<!-- x"])
def test_catalogue_text_is_escaped_and_cannot_end_the_inline_script(title):
    content = first_paint.title_html(series(title=title, summary=title), chapters(1), now=NOW)
    assert title not in content
    script = first_paint.paint_script(content, frame=("<div>", "</div>"), ready=".x")
    inner = script[len("<script>"): -len("</script>")]
    assert "</script" not in inner.lower() and "<!--" not in inner
    # What the browser gets back is the escaped article, in the frame.
    data = json.loads(re.search(r"paintGate\(pageFirstPaint\((.*)\)\)\}finally", script, re.DOTALL).group(1))
    assert data == {"html": "<div>" + content + "</div>", "ready": ".x"}


PRERENDERED = (
    '<html><head></head><body><div class="layout-site" data-layout="site"><header class="site-header">'
    '<a class="logo" href="/" data-discover="true">漫画</a><div class="sign-in-area" id="sign-in-area"></div></header>'
    '<main class="site-main" id="main"><button aria-label="戻る" class="back-button" type="button">‹ 戻る</button>'
    '<h1 class="page-title">ジャンル一覧</h1></main><footer class="site-footer"><a href="/genres" data-discover="true">ジャンル</a>'
    "</footer></div><script>x()</script></body></html>"
)


def test_the_frame_is_the_prerendered_layout_without_the_page_and_without_ids(tmp_path: Path):
    (tmp_path / f"{first_paint.FRAME_PAGE}.html").write_text(PRERENDERED, encoding="utf-8")
    before, after = first_paint.site_frame(tmp_path)
    assert before == (
        '<div class="layout-site" data-layout="site"><header class="site-header"><a class="logo" href="/">漫画</a>'
        '<div class="sign-in-area"></div></header><main class="site-main">'
        '<button aria-label="戻る" class="back-button" type="button">‹ 戻る</button>'
    )
    assert after == '</main><footer class="site-footer"><a href="/genres">ジャンル</a></footer></div>'


def test_a_build_without_the_frame_page_is_an_error(tmp_path: Path):
    with pytest.raises(FileNotFoundError):
        first_paint.site_frame(tmp_path)
    (tmp_path / f"{first_paint.FRAME_PAGE}.html").write_text("<html><body>no layout</body></html>", encoding="utf-8")
    with pytest.raises(ValueError):
        first_paint.site_frame(tmp_path)


def test_every_other_site_page_only_sets_the_gate():
    script = first_paint.paint_script()
    assert "function paintGate" in script and "window.__firstPaint = paintGate([])" in script
    assert "pageFirstPaint" not in script


def _card(n: int, **changes) -> Card:
    values = dict(slug=f"s{n}", title=f"星{n}", url=f"/manga/s{n}", cover=f"/c{n}-160.webp", srcset=f"/c{n}-160.webp 160w",
                  chapter_label="第3話", updated="2日前", updated_iso="2026-11-21T12:00:00+00:00",
                  parts=[Part("星", True), Part(str(n))])
    return Card(**{**values, **changes})


def test_search_results_show_the_marked_titles_tabs_chips_and_pager():
    page = SearchPage(
        heading="「星」の検索結果", total=40, cards=[_card(n) for n in range(1, 6)],
        sort_links=[TabLink("関連度順", "/search?q=星&sort=relevance", True), TabLink("更新順", "/search?q=星&sort=updated")],
        status_links=[TabLink("すべて", "/search?q=星", True)],
        genre_chips=[Chip("日常", "/search?q=星&genre=日常"), Chip("SF", "/search?exclude=SF", mode="include")],
        pager=[PageLink("1", "", current=True), PageLink("2", "/search?q=星&page=2"), PageLink("", gap=True), PageLink("次へ", "")],
    )
    html = first_paint.search_html(page, query="星")
    assert '<h1 class="page-title">「星」の検索結果</h1>' in html
    assert 'value="星" name="q"' in html
    assert '<p aria-live="polite" class="result-count">40件</p>' in html
    assert html.count('<li class="card">') == 5
    assert '<span class="card-title"><mark>星</mark>1</span>' in html
    # The first row's covers are what the page is about: fetched first.
    assert html.count('loading="eager" fetchpriority="high"') == first_paint.EAGER_CARDS
    assert html.count('loading="lazy"') == 5 - first_paint.EAGER_CARDS
    assert '<a aria-current="true" class="tab is-current" href="/search?q=星&amp;sort=relevance">関連度順</a>' in html
    assert '<a class="chip is-include" href="/search?exclude=SF" rel="nofollow">✓ SF<span class="visually-hidden">（含む）</span></a>' in html
    assert '<a class="chip" href="/search?q=星&amp;genre=日常" rel="nofollow">日常<span class="visually-hidden"></span></a>' in html
    assert '<span aria-current="page" class="pager-link is-current">1</span>' in html
    assert '<span class="pager-gap">…</span>' in html
    assert '<span aria-disabled="true" class="pager-link is-disabled">次へ</span>' in html
    assert re.search(r">\s+<", html) is None


def test_an_empty_search_suggests_titles():
    page = SearchPage(heading="「zzz」の検索結果", total=0, suggestions=[_card(1)], suggestion_title="もしかして",
                      notice="3ページ目はありません。最後のページを表示しています。")
    html = first_paint.search_html(page, query="zzz")
    assert '<p class="empty-note">条件に一致する作品は見つかりませんでした。</p>' in html
    assert '<h2 class="section-title">もしかして</h2>' in html and 'aria-label="もしかして"' in html
    assert '<p class="notice" role="status">3ページ目はありません。' in html
    assert "pager" not in html


def test_a_query_cannot_break_out_of_the_search_field():
    html = first_paint.search_html(SearchPage(), query='"><script>alert(1)</script>')
    assert "<script>" not in html and 'value="&#34;&gt;&lt;script&gt;' in html


def test_a_genre_page_shows_its_cards_count_and_pages():
    page = GenrePage(name="日常", total=30, cards=[_card(n, parts=[Part(f"星{n}")]) for n in range(1, 4)], page=2, pages=3,
                     sort_links=[TabLink("更新順", "/genre/x", True)], pager=[PageLink("1", "/genre/x"), PageLink("2", "", current=True)])
    html = first_paint.genre_html(page)
    assert '<h1 class="page-title">日常の漫画</h1>' in html
    assert '<p aria-live="polite" class="result-count">30作品<span> ・ 2 / 3ページ</span></p>' in html
    assert '<ul aria-label="作品一覧" class="card-grid">' in html and html.count('<li class="card">') == 3
    assert '<span class="card-title">星1</span>' in html
    assert '<a aria-current="true" class="tab is-current" href="/genre/x">更新順</a>' in html
    assert '<a class="pager-link" href="/genre/x">1</a>' in html
    assert re.search(r">\s+<", html) is None
    single = first_paint.genre_html(GenrePage(name="SF", total=2, pages=1))
    assert '<p aria-live="polite" class="result-count">2作品</p>' in single and "pager" not in single


# ---- the reader's first page, as HTML --------------------------------------

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
