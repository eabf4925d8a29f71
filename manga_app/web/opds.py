"""The OPDS 1.2 catalogue's feeds over HTTP (routes: feed_routes() and
file_routes() below, mounted by middleware.py at `/opds` and
`/opds/k/{key}`). Downloads and page streaming are opds_files.py, the
personal feeds opds_personal.py; caching, keys and errors opds_http.py."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import replace

from sqlmodel import Session
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route, Router

from manga_app.core.db import shared_engine
from manga_app.read_models.titles import load_title
from manga_app.core.config import get_settings
from manga_app.core import gojuon
from manga_app.opds import entries, feeds, listing, urls
from manga_app.opds.feeds import ACQUISITION, NAVIGATION
from manga_app.search import ranking
from manga_app.search.query import Query
from manga_app.search.normalize import clean_query, query_terms
from manga_app.read_models.orderings import Ordering
from manga_app.search.held_index import current_index
from manga_app.web import opds_files, opds_personal
from manga_app.web.opds_http import (
    Asker,
    OpdsError,
    asker,
    catalogue_updated,
    catalogue_validated,
    error_response,
    page_number,
    feed_of,
    paged,
    render,
)

SERIES_PER_PAGE = 50
NAMES_PER_PAGE = 100
UNITS_PER_PAGE = 100
MAX_NAME = 200


def _handler(body: Callable) -> Callable:
    """Errors raised anywhere in a feed become their plain-text answer."""

    async def endpoint(request: Request) -> Response:
        try:
            return await body(request, await asker(request))
        except OpdsError as error:
            return error_response(error)

    endpoint.__name__ = body.__name__
    return endpoint


def _series_list(request: Request, who: Asker, title: str, fetch, *, url, up: str = "") -> Response:
    """A paged navigation feed of series (each leading to its acquisition feed).
    `fetch(page, per_page)` gives the total and that page's items: a
    sequence is sliced, a search asks the index for one page only."""
    if isinstance(fetch, Sequence):
        listed = fetch
        fetch = lambda number, size: (len(listed), listed[(number - 1) * size : number * size])  # noqa: E731
    number = page_number(request)
    total, items = fetch(number, SERIES_PER_PAGE)
    page = paged(total, SERIES_PER_PAGE, number, url)

    def build():
        found = [entries.series_entry(item, who.urls) for item in items]
        return render(feed_of(who, request, title, NAVIGATION, found, page=page, up_href=up or who.urls.start()))

    return catalogue_validated(request, who, build)


def _searched(index, query: Query, terms: list[str]):
    def fetch(number: int, size: int):
        result = index.search(replace(query, page=number, per_page=size), terms)
        return result.total, result.items if result.page == number else ()

    return fetch


# --- navigation ---------------------------------------------------------------


async def root(request: Request, who: Asker) -> Response:
    def build():
        moment = catalogue_updated(who.snapshot)
        u = who.urls
        rows = [
            ("new", "新着作品", u.new(), "新しく追加された作品", NAVIGATION),
            ("popular", "人気作品", u.popular(), "よく読まれている作品", NAVIGATION),
            ("latest", "最近の更新", u.latest(), "新しい話が追加された作品", NAVIGATION),
            ("genres", "ジャンル", u.genres(), "ジャンル別の作品", NAVIGATION),
            ("authors", "作者", u.authors(), "作者別の作品", NAVIGATION),
            ("kana", "五十音", u.kana_rows(), "タイトルの読みの五十音順", NAVIGATION),
        ]
        if who.keyed:
            rows += [
                ("following", "フォロー中", u.following(), "フォローしている作品", NAVIGATION),
                ("continue", "続きを読む", u.continue_reading(), "読みかけの話", ACQUISITION),
            ]
        found = [entries.navigation_entry(key, title, href, updated=moment, content=text, kind=kind)
                 for key, title, href, text, kind in rows]
        return render(feed_of(who, request, get_settings().site_name, NAVIGATION, found))

    return catalogue_validated(request, who, build)


async def new(request: Request, who: Asker) -> Response:
    return _series_list(request, who, "新着作品", who.snapshot.newest, url=who.urls.new)


async def popular(request: Request, who: Asker) -> Response:
    return _series_list(request, who, "人気作品", who.snapshot.popular, url=who.urls.popular)


async def latest(request: Request, who: Asker) -> Response:
    return _series_list(request, who, "最近の更新", who.snapshot.latest, url=who.urls.latest)


async def genres(request: Request, who: Asker) -> Response:
    def build():
        moment = catalogue_updated(who.snapshot)
        found = [
            entries.navigation_entry(f"genre:{genre.name}", genre.name, who.urls.genre(genre.name),
                                     updated=moment, content=f"{genre.total}作品")
            for genre in who.snapshot.genres
        ]
        return render(feed_of(who, request, "ジャンル", NAVIGATION, found, up_href=who.urls.start()))

    return catalogue_validated(request, who, build)


async def _listings(who: Asker) -> listing.Listings:
    """Author and 五十音 listings: built once per publish, off the event loop
    (about 1.5 s at 100,000 series; benchmarks/bench_opds.py)."""
    return await asyncio.to_thread(listing.listings_of, who.snapshot.mangas)


def _name(request: Request, param: str) -> str:
    # `{name:path}`: the server decoded `%2F`, so a name may hold a slash.
    name = request.path_params[param].strip()
    if not name or len(name) > MAX_NAME:
        raise OpdsError(404, "見つかりませんでした。")
    return name


async def genre(request: Request, who: Asker) -> Response:
    name = _name(request, "name")
    if not any(known.name == name for known in who.snapshot.genres):
        raise OpdsError(404, f"ジャンル「{name}」は見つかりませんでした。")
    _, index = await current_index()
    fetch = _searched(index, Query(genres=(name,), sort=ranking.POPULAR), [])
    return _series_list(request, who, name, fetch, url=lambda n: who.urls.genre(name, n), up=who.urls.genres())


async def authors(request: Request, who: Asker) -> Response:
    names = (await _listings(who)).authors
    number = page_number(request)
    page = paged(len(names), NAMES_PER_PAGE, number, who.urls.authors)
    shown = names[(number - 1) * NAMES_PER_PAGE : number * NAMES_PER_PAGE]

    def build():
        moment = catalogue_updated(who.snapshot)
        found = [entries.navigation_entry(f"author:{name}", name, who.urls.author(name), updated=moment,
                                          content=f"{count}作品") for name, count in shown]
        return render(feed_of(who, request, "作者", NAVIGATION, found, page=page, up_href=who.urls.start()))

    return catalogue_validated(request, who, build)


async def author(request: Request, who: Asker) -> Response:
    name = _name(request, "name")
    ids = (await _listings(who)).by_author.get(name)
    if ids is None:
        raise OpdsError(404, f"作者「{name}」の作品は見つかりませんでした。")
    items = Ordering(who.snapshot.mangas, ids)
    return _series_list(request, who, name, items, url=lambda n: who.urls.author(name, n), up=who.urls.authors())


async def kana_rows(request: Request, who: Asker) -> Response:
    rows = (await _listings(who)).kana_rows

    def build():
        moment = catalogue_updated(who.snapshot)
        found = [entries.navigation_entry(f"kana:{row}", label, who.urls.kana_row(row), updated=moment,
                                          content=f"{len(rows[row])}作品")
                 for row, (label, _) in gojuon.ROWS.items() if row in rows]
        return render(feed_of(who, request, "五十音", NAVIGATION, found, up_href=who.urls.start()))

    return catalogue_validated(request, who, build)


async def kana_row(request: Request, who: Asker) -> Response:
    row = request.path_params["row"]
    if row not in gojuon.ROWS:
        raise OpdsError(404, "この行は見つかりませんでした。")
    ids = (await _listings(who)).kana_rows.get(row, ())
    items = Ordering(who.snapshot.mangas, ids)
    return _series_list(request, who, gojuon.label(row), items, url=lambda n: who.urls.kana_row(row, n),
                        up=who.urls.kana_rows())


# --- search -------------------------------------------------------------------


async def search_description(request: Request, who: Asker) -> Response:
    body = feeds.render_search_description(site_name=get_settings().site_name, template=who.urls.search_template())
    return catalogue_validated(request, who, lambda: (body, urls.OPENSEARCH))


async def search(request: Request, who: Asker) -> Response:
    """The site's own Japanese-aware search (readings and romaji), relevance first."""
    text = clean_query(request.query_params.get("q", ""))
    terms = query_terms(text)
    if not terms:
        raise OpdsError(400, "検索する言葉を q に指定してください。")
    _, index = await current_index()
    fetch = _searched(index, Query(q=text, sort=ranking.RELEVANCE), terms)
    return _series_list(request, who, f"「{text}」の検索結果", fetch, url=lambda n: who.urls.search(text, n))


# --- a series: its chapters and volumes -----------------------------------------


def _load_title(slug: str):
    with Session(shared_engine()) as session:
        return load_title(session=session, slug=slug, media_base_url=get_settings().media_base_url)


async def series(request: Request, who: Asker) -> Response:
    slug = request.path_params["slug"]
    number = page_number(request)
    loaded = await asyncio.to_thread(_load_title, slug) if opds_files.SLUG.match(slug) else None
    if loaded is None:
        raise OpdsError(404, "この作品は見つかりませんでした。")
    title, units = loaded
    ordered = entries.in_reading_order(units)
    page = paged(len(ordered), UNITS_PER_PAGE, number, lambda n: who.urls.series(slug, n))
    shown = ordered[(number - 1) * UNITS_PER_PAGE : number * UNITS_PER_PAGE]

    def build():
        found = [entries.unit_entry(title, unit, who.urls, pages=unit.page_count) for unit in shown]
        return render(feed_of(who, request, title.title, ACQUISITION, found, page=page, up_href=who.urls.start()))

    return catalogue_validated(request, who, build)


_not_found = PlainTextResponse("見つかりませんでした。\n", status_code=404, headers={"Cache-Control": "no-store"})


def _mounted(routes_: list[BaseRoute], *, root_endpoint=None) -> list[BaseRoute]:
    """Routes under both roots: the key-carrying one first (`/opds` would also match it)."""
    mounted: list[BaseRoute] = []
    for prefix in (urls.KEYED_PREFIX + "{key}", urls.ROOT):
        if root_endpoint is not None:
            mounted.append(Route(prefix, root_endpoint, methods=["GET", "HEAD"]))
        mounted.append(Mount(prefix, app=Router(routes=routes_, default=_not_found)))
    return mounted


def feed_routes() -> list[BaseRoute]:
    """The catalogue's feeds, at `/opds` and `/opds/k/{key}` (middleware.py mounts them)."""
    get = ["GET", "HEAD"]
    by_path = [
        ("/", root), ("/new", new), ("/popular", popular), ("/latest", latest), ("/genres", genres),
        ("/genres/{name:path}", genre), ("/authors", authors), ("/authors/{name:path}", author), ("/kana", kana_rows),
        ("/kana/{row}", kana_row), ("/search.xml", search_description), ("/search", search),
        ("/series/{slug}", series), ("/following", opds_personal.following), ("/continue", opds_personal.continue_reading),
    ]
    return _mounted([Route(path, _handler(body), methods=get) for path, body in by_path],
                    root_endpoint=_handler(root))


def file_routes() -> list[BaseRoute]:
    """Downloads and page streaming: already compressed, so kept out of the gzip layer."""
    get = ["GET", "HEAD"]
    return _mounted([
        Route("/series/{slug}/{number}.cbz", _handler(opds_files.download), methods=get),
        Route("/series/{slug}/{number}/pages/{index}", _handler(opds_files.page), methods=get),
    ])


def is_file_path(path: str) -> bool:
    """A download or a page (see file_routes), by its shape alone."""
    return path.startswith(urls.ROOT + "/") and (path.endswith(".cbz") or "/pages/" in path)
