"""Every page is one declaration (core/pages.py): the app adds exactly the
declared routes, each with its one view, and the other lists of pages
(heads, sitemap, service worker, footer, shelves) are read from the
declarations, so a new page appears in each of them by being declared."""

from __future__ import annotations

import json
import re

import pytest
import reflex as rx

from manga_app.core import pages, routes
from manga_app.core.pages import PageKind
from manga_app.heads import resolve
from manga_app.pages import VIEWS, register_pages
from manga_app.web import service_worker, sitemap


def _route_key(route: str) -> str:
    """A route as Reflex keeps it among its pages (`/` is `index`)."""
    return route.strip("/") or "index"


def test_the_app_serves_exactly_the_declared_pages_and_the_404_page():
    app = rx.App()
    register_pages(app)
    assert list(app._unevaluated_pages) == [_route_key(kind.page.route) for kind in PageKind] + ["404"]


def test_every_declared_page_has_one_view_with_its_own_kind():
    assert set(VIEWS) == set(PageKind)
    assert all(view.kind is kind for kind, view in VIEWS.items())


def test_a_declared_fixed_path_matches_its_page():
    for kind in PageKind:
        if kind.page.fixed:
            assert routes.match(kind.path) == routes.RouteMatch(kind)
            assert routes.match(kind.path + "/") == routes.RouteMatch(kind)


def test_every_page_without_a_declared_head_has_one_built_from_the_catalogue():
    assert set(resolve.CATALOGUE_HEADS) == {kind for kind in PageKind if kind.page.head is None}


def test_the_sitemap_lists_the_pages_declared_in_it():
    rows = tuple(routes.kana_row_url(row) for row in "あかさたなはまやらわ") + ("/index/%E8%8B%B1%E6%95%B0",)
    assert sitemap.STATIC_PATHS == (routes.HOME, routes.GENRES, routes.RANKING, routes.CALENDAR, *rows)
    assert rows[4] == "/index/%E3%81%AA"  # な, the row Komga's index lost


def test_the_service_worker_keeps_the_pages_declared_kept_offline():
    script = service_worker.worker_script("/* worker */", ["/assets/a.js"])
    kept = json.loads(re.search(r"^const SITE_PAGES = (.*);$", script, re.M)[1])
    assert kept == [routes.HOME, routes.LIBRARY, routes.HISTORY, routes.OFFLINE] == list(pages.offline_paths())


def test_the_footer_and_the_shelves_follow_the_declarations():
    assert [label for label, _ in pages.footer_links()] == ["トップ", "ジャンル", "五十音", "ランキング", "曜日別", "検索", "ライブラリ", "閲覧履歴"]
    assert {kind for kind in PageKind if kind.page.shelves} == {PageKind.LIBRARY, PageKind.HISTORY}


def test_a_page_with_parameters_has_no_single_path():
    with pytest.raises(ValueError, match=re.escape("/manga/[slug]")):
        PageKind.MANGA.path


def test_the_kana_index_opens_at_its_first_row_and_index_moves_there():
    assert dict(pages.footer_links())["五十音"] == routes.kana_row_url("あ") == pages.KANA_FIRST_ROW
    assert pages.MOVED == {"/index": routes.kana_row_url("あ")}
    assert routes.match("/index/%E3%81%AA") == routes.RouteMatch(PageKind.KANA_ROW, {"row": "な"})
