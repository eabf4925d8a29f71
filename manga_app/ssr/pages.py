"""A page's first HTML: its states (states.py) rendered by the renderer,
cached per catalogue version and minute (its relative times are that
minute's: core/clock.py), since the server renders what every visitor
first sees (and, for a page drawn with some of the visitor's cookies,
what every visitor with those cookies sees)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import parse_qsl, urlencode

from manga_app.core import routes
from manga_app.core.clock import page_minute, pinned_minute
from manga_app.pages import load_events, server_cookies
from manga_app.platform import states
from manga_app.ssr.renderer import RenderError, RendererClient
from manga_app.heads.state import FOUND_FIELD, HeadState
from manga_app.ssr import csp
from manga_app.platform import start_after_first_paint
from manga_app.ssr.shell import SPA_FALLBACK, static_dir

log = logging.getLogger(__name__)
_CACHE_PAGES = 2_000
_NOT_FOUND_ROUTE = "/404"


@dataclass(frozen=True)
class _Key:
    # The host changes only what the production host shows (robots, analytics).
    version: str
    # The relative times it shows are this minute's (core/clock.py), as the app's
    # own load then computes them; 0 for a page that shows none (kept_minute).
    minute: int
    production: bool
    path: str
    query: str
    cookies: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Page:
    status: int
    html: str
    # The CSP hash sources of its inline scripts (ssr/csp.py), taken once.
    script_hashes: tuple[str, ...]


_cache: OrderedDict[_Key, Page] = OrderedDict()
# Renders under way: visitors asking for the same page meanwhile wait for
# that one render (after a publish, every popular page is asked for at once).
_rendering: dict[_Key, asyncio.Task[tuple[Page, bool]]] = {}
_client: RendererClient | None = None


def _renderer() -> RendererClient:
    global _client
    if _client is None:
        _client = RendererClient(static_dir().parent.parent)
    return _client


async def warm_up() -> None:
    """A lifespan task: start this worker's renderer before the first visitor
    (a failure is logged, and the first page request tries again). Under
    `make dev` there is no production build: Vite draws every page in the
    browser, and no renderer is started."""
    if not (static_dir() / "index.html").is_file():
        log.info("No production build in %s: pages are drawn in the browser only (make dev)", static_dir())
        return
    try:
        await asyncio.to_thread(_renderer().start)
    except RenderError:
        log.exception("The page renderer did not start")


def kept_minute(kind: routes.PageKind | None, now: datetime | None = None) -> int:
    """The minute a page's kept HTML is for: page_minute for a page that shows
    relative times (its declaration's `shows_times`), else 0: the reader, the
    most asked-for page, is not rendered anew every minute for nothing."""
    return page_minute(now) if kind is not None and kind.page.shows_times else 0


def own_query(kind: routes.PageKind | None, query: str) -> str:
    """`query` with only the parameters the page reads (its declaration's
    `query`), in a stable order: `?z=<random>` neither renders anew nor
    takes a place in the cache."""
    wanted = kind.page.query if kind else ()
    if not wanted or not query:
        return ""
    pairs = [(name, value) for name, value in parse_qsl(query[:4000], keep_blank_values=True, errors="replace")
             if name in wanted]
    return urlencode(sorted(pairs, key=lambda pair: wanted.index(pair[0])))


async def render_page(
    path: str,
    query: str,
    *,
    host: str,
    scheme: str,
    production: bool,
    version: str,
    cookies: Mapping[str, str] | None = None,
) -> Page:
    """`cookies`: the request's; only those the page names are used."""
    found = routes.match(path)
    query = own_query(found.kind if found else None, query)
    named = server_cookies(found.kind if found else None)
    used = tuple((name, cookies[name]) for name in named if cookies and cookies.get(name))
    minute = kept_minute(found.kind if found else None)
    key = _Key(version, minute, production, path, query, used)
    cached = _cache.get(key)
    if cached is not None:
        _cache.move_to_end(key)
        return cached
    task = _rendering.get(key)
    if task is None:
        task = _rendering[key] = asyncio.ensure_future(
            _render(path, query, found, dict(used), host=host, scheme=scheme, minute=minute))
        task.add_done_callback(lambda _: _rendering.pop(key, None))
    # Shielded: a visitor who leaves does not cancel the render the others wait for.
    result, rendered = await asyncio.shield(task)
    if rendered and key not in _cache:
        _cache[key] = result
        if len(_cache) > _CACHE_PAGES:
            _cache.popitem(last=False)
    return result


async def _render(
    path: str, query: str, found: routes.RouteMatch | None, cookies: dict[str, str], *, host: str, scheme: str,
    minute: int = 0,
) -> tuple[Page, bool]:
    """The page, and whether the server rendered it (else the app will, in
    the browser: the built shell, never cached, so the next visit tries again).
    `minute`: the one it is kept under (kept_minute), whose times it shows."""
    template = routes.ROUTE_TEMPLATES[found.kind] if found else _NOT_FOUND_ROUTE
    data = states.router_data(path, query, host=host, scheme=scheme, template=template)
    with pinned_minute(minute) if minute else contextlib.nullcontext():
        seed = await states.page_states(load_events(found.kind if found else None), data, cookies)
    status = 404 if found is None or seed.get(HeadState.get_full_name(), {}).get(FOUND_FIELD) is False else 200
    url = path + (f"?{query}" if query else "")
    try:
        html = start_after_first_paint(await _renderer().render(url, states.seed_json(seed)))
    except RenderError:
        log.exception("%s is served without server rendering", url)
        html = (static_dir() / SPA_FALLBACK).read_text(encoding="utf-8")
        return Page(status, html, csp.inline_script_hashes(html)), False
    return Page(status, html, csp.inline_script_hashes(html)), True
