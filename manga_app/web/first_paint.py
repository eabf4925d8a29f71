"""The first paint of pages whose content comes from the catalogue.

Reflex 0.10 serves dynamic routes (title and genre pages) from an empty SPA
shell, and the search page's results come over the websocket, so before
this they showed nothing (or placeholders) until the app's JavaScript had
loaded, run and asked the server for the page. The server now renders the
page's content as the app will (templates/, with the same classes) inside
the site frame the build prerendered (header, back button, footer), and
assets/js/page_first_paint.js puts it on screen while the head is parsed.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path

import jinja2
from markupsafe import Markup

from manga_app.catalogue.views import ChapterView, SeriesView
from manga_app.genre_page import GenrePage
from manga_app.search.normalize import MAX_QUERY_CHARS
from manga_app.search_page import SearchPage
from manga_app.title_page import title_page
from manga_app.seo import inline_script, inline_style, script_json, self_removing_script
from manga_app.state.browse import COVER_HEIGHT, COVER_WIDTH

TEMPLATES = Path(__file__).resolve().parent / "templates"
# The prerendered page whose frame (header, back button, footer) is reused:
# any site page with a back button.
FRAME_PAGE = "genres"
# Rows painted before the app takes over: many screens' worth; a series with
# hundreds of chapters gets the rest from the app.
CHAPTER_ROWS = 60
# What the app shows once a title page is loaded (pages/manga.py).
TITLE_READY = ".title-page:not(.is-placeholder)"
# ...and once the search or a genre's page has its cards (pages/search.py, pages/genre.py).
GRID_READY = ".browse-results[data-loaded=true]"
# Search and genre covers painted before the app starts: the first row on a phone.
EAGER_CARDS = 3

_FRAME = re.compile(
    r'(<div class="layout-site"[^>]*>.*?<main\b[^>]*>(?:<button[^>]*class="back-button"[^>]*>.*?</button>)?)'
    r".*?(</main>.*?</footer></div>)",
    re.DOTALL,
)
# The copy must not repeat the app's ids; React Router's link marker means nothing here.
_DROPPED_ATTRIBUTES = re.compile(r'\s(?:id|data-discover)="[^"]*"')
# Line breaks and indentation between tags, template tags included.
_BETWEEN_TAGS = re.compile(r"(>|%\}|#\}|\}\})[ \t]*\n\s*(?=<|\{%|\{#|\{\{)")


def _template_source(name: str) -> tuple[str, str, None] | None:
    file = TEMPLATES / name
    if not file.is_file():
        return None
    # React renders no whitespace between elements: neither does the copy.
    return _BETWEEN_TAGS.sub(r"\1", file.read_text(encoding="utf-8")), str(file), None


_ENVIRONMENT = jinja2.Environment(
    loader=jinja2.FunctionLoader(_template_source),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)


@lru_cache(maxsize=4)
def _frame(file: Path, mtime_ns: int) -> tuple[str, str]:
    found = _FRAME.search(file.read_text(encoding="utf-8"))
    if found is None:
        raise ValueError(f"{file} has no site layout to reuse for first paints")
    before, after = found.groups()
    return _DROPPED_ATTRIBUTES.sub("", before), _DROPPED_ATTRIBUTES.sub("", after)


def site_frame(static_root: Path) -> tuple[str, str]:
    """The prerendered site layout around a page's content, from this build."""
    for file in (static_root / f"{FRAME_PAGE}.html", static_root / FRAME_PAGE / "index.html"):
        if file.is_file():
            return _frame(file, file.stat().st_mtime_ns)
    raise FileNotFoundError(f"no prerendered {FRAME_PAGE} page in {static_root}")


def title_html(series: SeriesView, chapters: tuple[ChapterView, ...], *, now: datetime | None = None) -> str:
    """A title page's article, as pages/manga.py renders it once loaded."""
    page = title_page(series, chapters, now=now or datetime.now(UTC))
    return _ENVIRONMENT.get_template("title.html").render(
        page=page, cover_width=COVER_WIDTH, cover_height=COVER_HEIGHT, chapter_rows=CHAPTER_ROWS
    )


def search_html(page: SearchPage, *, query: str) -> str:
    """The search page's content, as pages/search.py renders it after a search."""
    return _ENVIRONMENT.get_template("search.html").render(
        page=page, query=query, max_query=MAX_QUERY_CHARS, eager_cards=EAGER_CARDS,
        cover_width=COVER_WIDTH, cover_height=COVER_HEIGHT,
    )


def genre_html(page: GenrePage) -> str:
    """A genre's page, as pages/genre.py renders it once loaded."""
    return _ENVIRONMENT.get_template("genre.html").render(
        page=page, eager_cards=EAGER_CARDS, cover_width=COVER_WIDTH, cover_height=COVER_HEIGHT
    )


def paint_script(content: str = "", *, frame: tuple[str, str] = ("", ""), ready: str = "") -> str:
    """The inline head script of a site page: paints `content` (if any) in
    the site frame (assets/js/page_first_paint.js) and sets the promise the
    app's start waits for (assets/js/paint_gate.js, web/shell.py)."""
    if not content:
        return self_removing_script(f"{inline_script('paint_gate.js')}\nwindow.__firstPaint = paintGate([])")
    data = {"html": frame[0] + content + frame[1], "ready": ready}
    return self_removing_script(
        f"{inline_script('paint_gate.js')}\n{inline_script('page_first_paint.js')}\n"
        f"window.__firstPaint = paintGate(pageFirstPaint({script_json(data)}))"
    )


def reader_html(data: dict) -> str:
    """A chapter's first page as HTML, first in the body, for a browser that
    has not read here (reader_rules.first_paint_in_html): as the reader will
    open it, styled by the reader's page rules alone (the site's stylesheet
    loads after this frame), with the paint gate the app's start waits for.
    Nothing of it runs before the frame but the parser: the head's script
    (seo.first_paint_html) cost a fresh page's main thread several
    milliseconds on the way to its first frame."""
    script = self_removing_script(
        f"{inline_script('paint_gate.js')}\n{inline_script('reader/first_paint_watch.js')}\n"
        "window.__firstPaint = paintGate(watchReaderFirstPaint(self.parentNode))"
    )
    return _ENVIRONMENT.get_template("reader_first_paint.html").render(
        page=data,
        mode="vertical" if data["webtoon"] else "paged",
        direction=data["direction"],
        share=data["width"] / data["height"],
        css=Markup(inline_style("reader_pages.css")),
        script=Markup(script),
    )
