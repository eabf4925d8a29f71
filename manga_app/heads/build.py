"""The search-engine data of every page, built from the route match.

One function serves both the server (first HTML response) and the browser
state (after hydration), so the two can never disagree."""

from __future__ import annotations

from typing import TYPE_CHECKING

from manga_app.core import discovery, gojuon, routes
from manga_app.heads import seo
from manga_app.core.display import STATUS_LABELS
from manga_app.core.pages import JsonLd, PageKind
from manga_app.heads.seo import PageHead

if TYPE_CHECKING:  # read models only; heads stay free of database imports
    from manga_app.read_models.titles import ChapterContext, ChapterView, SeriesView

_DESCRIPTION_LENGTH = 120

NOT_FOUND_TITLE = "ページが見つかりません"


def default_title(site_names: tuple[str, ...]) -> str:
    """The spec's default title (docs/spec.md section 2): the site's names and aliases, listed."""
    return " | ".join(site_names)


def page_title(name: str, site_name: str) -> str:
    return f"{name} | {site_name}"


def static_head(kind: PageKind, *, site_names: tuple[str, ...], origin: str) -> PageHead:
    """The head a page declares (core/pages.py) when it is the same for every
    visitor and catalogue."""
    declared, site, path = kind.page.head, site_names[0], kind.path
    if declared is None:
        raise ValueError(f"{kind.name} has no fixed head")
    if declared.json_ld is JsonLd.WEBSITE:
        json_ld = _website_ld(site, origin)
    else:
        json_ld = _breadcrumbs(origin, [(site, routes.HOME), (declared.title, path)])
    return PageHead(
        title=page_title(declared.title, site) if declared.title else default_title(site_names),
        description=declared.description,
        path=path,
        json_ld=(json_ld,),
        indexable=declared.indexable,
    )


def not_found_head(path: str, *, site_name: str) -> PageHead:
    return PageHead(
        title=page_title(NOT_FOUND_TITLE, site_name),
        description="お探しのページは見つかりませんでした。URLをご確認ください。",
        path=path,
        indexable=False,
    )


def title_head(series: SeriesView, chapters: tuple[ChapterView, ...], *, site_name: str, origin: str) -> PageHead:
    """A title page: the series as a ComicSeries with its chapters."""
    authors = "・".join(series.authors)
    lead = f"{series.title}（{authors}）" if authors else series.title
    summary = series.summary or f"{series.title}の最新話まで全{len(chapters)}話を無料で読めます。"
    description = _clip(f"{lead}を無料で読む。{STATUS_LABELS.get(series.status, '')}・全{len(chapters)}話。{summary}")
    series_ld = {
        "@context": "https://schema.org",
        "@type": "ComicSeries",
        "name": series.title,
        "url": origin + series.url,
        "inLanguage": "ja",
        "description": series.summary or description,
        "genre": list(series.genres),
        "hasPart": [
            {
                "@type": "ComicIssue",
                "issueNumber": routes.unit_number(chapter.number),
                "name": chapter.title or routes.unit_label(chapter.number),
                "url": origin + chapter.url,
                "datePublished": chapter.published_at.date().isoformat(),
            }
            for chapter in reversed(chapters)
        ],
    }
    if series.alt_titles:
        series_ld["alternateName"] = list(series.alt_titles)
    if series.authors:
        series_ld["author"] = [{"@type": "Person", "name": name} for name in series.authors]
    if series.cover:
        series_ld["image"] = absolute(origin, series.cover)
    crumbs = [(site_name, routes.HOME)]
    if series.genres:
        crumbs.append((series.genres[0], routes.genre_url(series.genres[0])))
    crumbs.append((series.title, series.url))
    return PageHead(
        title=page_title(f"{series.title} - 無料で漫画を読む", site_name),
        description=description,
        path=series.url,
        og_type="book",
        image=series.cover or seo.DEFAULT_IMAGE,
        json_ld=(series_ld, _breadcrumbs(origin, crumbs)),
        feed=routes.series_feed_url(series.slug),
        feed_title=f"{series.title}の新着",
    )


def reader_head(context: ChapterContext, path: str, *, site_name: str, origin: str) -> PageHead:
    """A chapter in the reader."""
    series, chapter = context.series, context.chapter
    label = routes.unit_label(chapter.number, chapter.title)
    issue_ld = {
        "@context": "https://schema.org",
        "@type": "ComicIssue",
        "name": f"{series.title} {label}",
        "issueNumber": routes.unit_number(chapter.number),
        "url": origin + chapter.url,
        "inLanguage": "ja",
        "datePublished": chapter.published_at.date().isoformat(),
        "isPartOf": {"@type": "ComicSeries", "name": series.title, "url": origin + series.url},
    }
    if series.cover:
        issue_ld["image"] = absolute(origin, series.cover)
    crumbs = [(site_name, routes.HOME), (series.title, series.url), (label, chapter.url)]
    return PageHead(
        heading=f"{series.title} {label}",
        title=page_title(f"{series.title} {label}", site_name),
        description=_clip(f"{series.title} {label}（全{chapter.page_count}ページ）を無料で読む。{series.summary}"),
        path=chapter.url,
        og_type="article",
        image=series.cover or seo.DEFAULT_IMAGE,
        json_ld=(issue_ld, _breadcrumbs(origin, crumbs)),
    )


def genre_head(name: str, total: int, *, site_name: str, origin: str) -> PageHead:
    path = routes.genre_url(name)
    return PageHead(
        title=page_title(f"{name}の漫画一覧", site_name),
        description=f"{name}ジャンルの漫画{total}作品。更新順・人気順・新着順・タイトル順で探せます。",
        path=path,
        json_ld=(
            {"@context": "https://schema.org", "@type": "CollectionPage", "name": f"{name}の漫画一覧", "url": origin + path},
            _breadcrumbs(origin, [(site_name, routes.HOME), ("ジャンル一覧", routes.GENRES), (name, path)]),
        ),
    )


def named_list_head(kind: PageKind, name: str, total: int, *, site_name: str, origin: str) -> PageHead:
    """An author's page (their series, as a Person's works) or a tag's."""
    if kind is PageKind.AUTHOR:
        path, shown = routes.author_url(name), f"{name}の作品一覧"
        description = f"{name}の漫画{total}作品（作画を含む）。更新順・人気順・新着順・タイトル順で探せます。"
        about = {"@type": "Person", "name": name}
    else:
        path, shown = routes.tag_url(name), f"#{name}の漫画一覧"
        description = f"タグ「{name}」のついた漫画{total}作品。更新順・人気順・新着順・タイトル順で探せます。"
        about = {"@type": "DefinedTerm", "name": name}
    return PageHead(
        title=page_title(shown, site_name),
        description=_clip(description),
        path=path,
        json_ld=(
            {"@context": "https://schema.org", "@type": "CollectionPage", "name": shown, "url": origin + path,
             "about": about, "inLanguage": "ja"},
            _breadcrumbs(origin, [(site_name, routes.HOME), (shown, path)]),
        ),
    )


def kana_row_head(row: str, total: int, page: int, *, site_name: str, origin: str) -> PageHead:
    """One row of the 五十音 index (`row` one of gojuon.SITE_ROWS)."""
    path = routes.kana_row_url(row, page)
    name = f"{gojuon.site_row_label(row)}の漫画"
    return PageHead(
        title=page_title(name + (f"（{page}ページ目）" if page > 1 else ""), site_name),
        description=_clip(f"読みが{gojuon.site_row_label(row)}で始まる漫画{total}作品を五十音順に並べた索引です。"
                          if row != gojuon.OTHERS else f"英字・数字などで始まる漫画{total}作品の索引です。"),
        path=path,
        json_ld=(
            {"@context": "https://schema.org", "@type": "CollectionPage", "name": name, "url": origin + path},
            _breadcrumbs(origin, [(site_name, routes.HOME), ("五十音", routes.kana_row_url(gojuon.SITE_ROWS[0])),
                                  (name, routes.kana_row_url(row))]),
        ),
    )


def ranking_head(period: str, genre: str, page: int, entries: list[tuple[int, str, str]], *, site_name: str,
                 origin: str) -> PageHead:
    """A ranking page; `entries` are its (place, title, url), listed as an ItemList."""
    path = routes.ranking_url("" if period == discovery.DAY else period, genre, page)
    label = discovery.PERIOD_LABELS[period]
    name = f"{genre}の漫画{label}ランキング" if genre else f"漫画{label}ランキング"
    shown = name + (f"（{page}ページ目）" if page > 1 else "")
    return PageHead(
        title=page_title(shown, site_name),
        description=_clip(f"{name}。{label}に読まれた人数の多い順に、順位の上がり下がりつきで並べています。"),
        path=path,
        json_ld=(
            {
                "@context": "https://schema.org",
                "@type": "ItemList",
                "name": name,
                "url": origin + path,
                "itemListOrder": "https://schema.org/ItemListOrderDescending",
                "itemListElement": [
                    {"@type": "ListItem", "position": place, "name": title, "url": origin + url}
                    for place, title, url in entries
                ],
            },
            _breadcrumbs(origin, [(site_name, routes.HOME), ("ランキング", routes.RANKING)]
                         + ([(name, path)] if genre or period != discovery.DAY else [])),
        ),
    )


def calendar_head(day: str, chosen: bool, page: int, *, site_name: str, origin: str) -> PageHead:
    """The weekday calendar; `chosen`: the day is in the URL (else it is today's,
    and the page's address is the calendar's own)."""
    path = routes.calendar_url(day if chosen else "", page)
    label = discovery.DAY_LABELS[day]
    name = "不定期更新の漫画" if day == discovery.IRREGULAR else f"{label}曜日更新の漫画"
    return PageHead(
        title=page_title(name + (f"（{page}ページ目）" if page > 1 else ""), site_name),
        description=_clip(f"{name}一覧。連載中の作品を、最近の更新から割り出した曜日ごとに並べています。本日更新の作品には印がつきます。"),
        path=path,
        json_ld=(
            {"@context": "https://schema.org", "@type": "CollectionPage", "name": name, "url": origin + path},
            _breadcrumbs(origin, [(site_name, routes.HOME), ("曜日別", routes.CALENDAR)]),
        ),
    )


def absolute(origin: str, url: str) -> str:
    return seo.absolute_url(origin, url)


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _DESCRIPTION_LENGTH else text[: _DESCRIPTION_LENGTH - 1] + "…"


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
