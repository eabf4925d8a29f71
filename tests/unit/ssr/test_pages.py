"""manga_app.ssr.pages: a page the renderer cannot render is still served."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from manga_app.core import routes
from manga_app.core.clock import page_now
from manga_app.ssr import pages
from manga_app.ssr.renderer import RendererClient

SHELL = '<!DOCTYPE html><html lang="ja"><head></head><body><script>start()</script></body></html>'


@pytest.fixture
def web_dir_without_a_server_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    client = tmp_path / "build" / "client"
    client.mkdir(parents=True)
    (client / pages.SPA_FALLBACK).write_text(SHELL, encoding="utf-8")
    monkeypatch.setattr(pages, "static_dir", lambda: client)
    monkeypatch.setattr(pages, "_client", RendererClient(tmp_path))
    monkeypatch.setattr(pages, "_cache", type(pages._cache)())
    return tmp_path


def test_a_page_the_renderer_cannot_render_is_the_apps_shell_with_its_status_and_is_not_kept(
    web_dir_without_a_server_build: Path,
):
    page = asyncio.run(pages.render_page("/no-such-page", "", host="localhost", scheme="http", production=False, version="v1"))
    assert page.status == 404
    assert page.html == SHELL  # the app renders the page in the browser
    assert page.script_hashes and len(page.script_hashes) == 1
    assert len(pages._cache) == 0  # the next visit tries the renderer again


def test_visitors_asking_at_once_for_a_page_not_yet_rendered_wait_for_one_render(
    web_dir_without_a_server_build: Path, monkeypatch: pytest.MonkeyPatch,
):
    renders = []
    render = pages._render

    async def counted(*args, **kwargs):
        renders.append(args[0])
        await asyncio.sleep(0.05)  # a render takes a while: the others arrive meanwhile
        return await render(*args, **kwargs)

    monkeypatch.setattr(pages, "_render", counted)

    async def hundred_visitors():
        return await asyncio.gather(*(
            pages.render_page("/no-such-page", "", host="localhost", scheme="http", production=False, version="v1")
            for _ in range(100)))

    served = asyncio.run(hundred_visitors())
    assert renders == ["/no-such-page"]
    assert {page.status for page in served} == {404} and {page.html for page in served} == {SHELL}
    assert not pages._rendering
    # A shell is never kept: a later visitor asks the renderer again.
    asyncio.run(pages.render_page("/no-such-page", "", host="localhost", scheme="http", production=False, version="v1"))
    assert renders == ["/no-such-page"] * 2


def test_query_parameters_no_page_reads_neither_render_anew_nor_fill_the_cache(
    web_dir_without_a_server_build: Path, monkeypatch: pytest.MonkeyPatch,
):
    renders = []
    render = pages._render

    async def counted(*args, **kwargs):
        renders.append((args[0], args[1]))
        await asyncio.sleep(0.05)
        return await render(*args, **kwargs)

    monkeypatch.setattr(pages, "_render", counted)

    async def visitors(queries):
        return await asyncio.gather(*(
            pages.render_page("/search", query, host="localhost", scheme="http", production=False, version="v1")
            for query in queries))

    # Junk after the search's own parameters (cache busting): one render, of the page's own query.
    asyncio.run(visitors([f"q=%E7%8C%AB&z={i}&utm_source=x{i}" for i in range(50)]))
    assert renders == [("/search", "q=%E7%8C%AB")]
    # The page's own parameters still make pages of their own.
    asyncio.run(visitors(["q=%E7%8C%AB&page=2", "sort=new&q=%E7%8C%AB"]))
    assert sorted(renders[1:]) == [("/search", "q=%E7%8C%AB&page=2"), ("/search", "q=%E7%8C%AB&sort=new")]


@pytest.mark.parametrize(("path", "query", "kept"), [
    ("/ranking", "period=week&genre=%E6%97%A5%E5%B8%B8&z=1", "period=week&genre=%E6%97%A5%E5%B8%B8"),
    ("/ranking", "page=2&period=month", "period=month&page=2"),
    ("/calendar", "day=irregular&utm_source=x", "day=irregular"),
    ("/genre/%E6%97%A5%E5%B8%B8", "sort=new&z=2", "sort=new"),
    ("/", "z=1", ""),
])
def test_every_page_keeps_the_query_parameters_its_declaration_names(path: str, query: str, kept: str):
    """The parameters a page reads are in its declaration (core/pages.py): a
    ranking's period and genre make pages of their own, junk does not."""
    found = routes.match(path)
    assert pages.own_query(found.kind if found else None, query) == kept


@pytest.mark.parametrize(("path", "shows_times"), [
    ("/", True), ("/ranking", True), ("/calendar", True), ("/search", True), ("/manga/hoshifuru", True),
    ("/genre/%E6%97%A5%E5%B8%B8", True), ("/author/x", True), ("/index/%E3%81%82", True),
    ("/hoshifuru-ch-1", False), ("/genres", False), ("/offline", False), ("/no/such/page", False),
])
def test_only_pages_that_show_relative_times_are_rendered_anew_each_minute(path: str, shows_times: bool):
    """A page's kept HTML says 3分前 as of its minute (core/clock.py); the
    reader shows no such time, so a new minute does not render it again."""
    found = routes.match(path)
    kind = found.kind if found else None
    at = datetime(2026, 11, 30, 5, 10, 30, tzinfo=UTC)
    later = at + timedelta(minutes=1)
    assert (pages.kept_minute(kind, at) != pages.kept_minute(kind, later)) is shows_times


def test_a_render_shows_the_times_of_the_minute_it_is_kept_under(
    web_dir_without_a_server_build: Path, monkeypatch: pytest.MonkeyPatch,
):
    """A render asked at 5:10:59.9 and running past 5:11 is kept as 5:10's
    page: its times must be 5:10's, as the app's own load computes them then."""
    seen = []

    async def page_states(on_load, data, cookies=None):
        seen.append(page_now())
        return {}

    monkeypatch.setattr(pages.states, "page_states", page_states)
    asked = datetime(2026, 11, 30, 5, 10, 59, 900_000, tzinfo=UTC)
    found = routes.match("/ranking")
    asyncio.run(pages._render("/ranking", "", found, {}, host="localhost", scheme="http",
                              minute=pages.kept_minute(found.kind, asked)))
    assert seen == [page_now(asked)]
