"""The search-engine data of every page, built from the route match.

One function serves both the server (first HTML response) and the browser
state (after hydration), so the two can never disagree."""

from __future__ import annotations

from manga_app import routes
from manga_app.routes import PageKind, RouteMatch
from manga_app.seo import PageHead

SITE_DESCRIPTION = (
    "日本語の生漫画をスマホで快適に。最新話の更新、人気作品、ジャンル別の一覧と"
    "読みやすいリーダーで、無料でマンガを読めるサイトです。"
)
NOT_FOUND_TITLE = "ページが見つかりません"


def default_title(site_names: tuple[str, ...]) -> str:
    """The spec's default title: the site's names and aliases, listed."""
    return " | ".join(site_names)


def page_title(name: str, site_name: str) -> str:
    return f"{name} | {site_name}"


def static_head(kind: PageKind, *, site_names: tuple[str, ...], origin: str) -> PageHead:
    """Heads of the pages whose content does not depend on the catalogue row."""
    site = site_names[0]
    if kind is PageKind.HOME:
        return PageHead(
            title=default_title(site_names),
            description=SITE_DESCRIPTION,
            path=routes.HOME,
            json_ld=(_website_ld(site, origin),),
        )
    names = {
        PageKind.GENRES: ("ジャンル一覧", "ジャンルから漫画を探す。作品数つきの全ジャンル一覧です。", routes.GENRES),
        PageKind.SEARCH: ("漫画を検索", "タイトル・別名・よみがな・ローマ字で漫画を検索できます。", routes.SEARCH),
        PageKind.LIBRARY: ("ライブラリ", "フォローした作品の新着話をまとめて確認できます。", routes.LIBRARY),
        PageKind.HISTORY: ("閲覧履歴", "最近読んだ漫画の続きをすぐに読めます。", routes.HISTORY),
    }
    title, description, path = names[kind]
    personal = kind in (PageKind.LIBRARY, PageKind.HISTORY)
    return PageHead(
        title=page_title(title, site),
        description=description,
        path=path,
        json_ld=(_breadcrumbs(origin, [(site, routes.HOME), (title, path)]),),
        indexable=not personal,
    )


def not_found_head(path: str, *, site_name: str) -> PageHead:
    return PageHead(
        title=page_title(NOT_FOUND_TITLE, site_name),
        description="お探しのページは見つかりませんでした。URLをご確認ください。",
        path=path,
        indexable=False,
    )


def head_for(found: RouteMatch | None, path: str, *, site_names: tuple[str, ...], origin: str) -> PageHead | None:
    """The head of the page at `path`, or None when the page does not exist."""
    if found is None:
        return None
    if found.kind in (PageKind.HOME, PageKind.GENRES, PageKind.SEARCH, PageKind.LIBRARY, PageKind.HISTORY):
        return static_head(found.kind, site_names=site_names, origin=origin)
    # Titles, genres and chapters are resolved against the catalogue.
    return None


def _website_ld(site_name: str, origin: str) -> dict:
    return {
        "@context": "https://schema.org",
        "@type": "WebSite",
        "name": site_name,
        "url": origin + "/",
        "inLanguage": "ja",
        "potentialAction": {
            "@type": "SearchAction",
            "target": {"@type": "EntryPoint", "urlTemplate": origin + routes.SEARCH + "?q={search_term_string}"},
            "query-input": "required name=search_term_string",
        },
    }


def _breadcrumbs(origin: str, trail: list[tuple[str, str]]) -> dict:
    return {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": index, "name": name, "item": origin + path}
            for index, (name, path) in enumerate(trail, start=1)
        ],
    }
