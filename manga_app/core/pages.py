"""Every page of the site, declared once: its route, its head, and where else
it appears (sitemap, service worker, footer, library shelves). Routes, heads,
the sitemap, the service worker's page list and the shelves are derived from
these declarations; the view, its on_load and its server cookies are joined
to a declaration where the view is written (`ui.page.page`). Pure: no
framework imports.

Adding a page is docs/architecture.md, "Adding a page"."""

from __future__ import annotations

import enum
from dataclasses import dataclass

SITE_DESCRIPTION = (
    "日本語の生漫画をスマホで快適に。最新話の更新、人気作品、ジャンル別の一覧と"
    "読みやすいリーダーで、無料でマンガを読めるサイトです。"
)


# The 五十音 index's first row, あ (core/gojuon.py), as a path.
KANA_FIRST_ROW = "/index/%E3%81%82"
# Paths that moved for good (308) to a page. Reflex keeps `/index` as the
# home page's own name (reflex/route.py), so the index has no page there:
# `/index` opens it at its first row.
MOVED: dict[str, str] = {"/index": KANA_FIRST_ROW}


class JsonLd(enum.Enum):
    """The structured data of a page whose head is fixed."""

    WEBSITE = "website"  # the site itself, with its search action
    BREADCRUMBS = "breadcrumbs"  # the site's home, then this page


@dataclass(frozen=True)
class Head:
    """The head of a page the same for every visitor and catalogue.
    An empty title is the site's default title (its names, listed)."""

    title: str
    description: str
    indexable: bool = True
    json_ld: JsonLd = JsonLd.BREADCRUMBS


@dataclass(frozen=True)
class Tab:
    """A page's place in the phones' bottom tab bar: its label and its icon
    (a name the tab bar draws, ui/tab_bar.py)."""

    label: str
    icon: str


@dataclass(frozen=True)
class Page:
    """One page: `route` is its Reflex route template (`/genre/[name]`; a
    path without brackets is the page's one path). `head` None means the
    head is built from the catalogue row the path names (heads.resolve)."""

    route: str
    head: Head | None = None
    in_sitemap: bool = False  # listed in /sitemap.xml as a fixed path
    kept_offline: bool = False  # kept by the service worker, opens offline
    nav_label: str = ""  # its link in the footer menu ("": none)
    nav_path: str = ""  # where that link goes, for a page with a parameter
    tab: Tab | None = None  # its tab in the phones' bottom tab bar (at most five pages have one)
    shelves: bool = False  # shows the library's shelves (LibraryState loads them)
    # The query parameters the page reads; any other one changes nothing the
    # server renders, so it neither renders anew nor takes a cache place.
    query: tuple[str, ...] = ()
    # The operator's console: a 404 (the site's ordinary one) to every reader,
    # on the server and in the browser; never in the sitemap or kept offline.
    console: bool = False
    # Its link in the console's menu ("": none).
    console_label: str = ""
    # Shows one visitor's own things (once the app has their session): no
    # cache anywhere keeps a copy (Cache-Control: no-store); console pages too.
    personal: bool = False
    # Its first HTML shows relative times (3分前: core/clock.py), so the server
    # keeps it for one minute; any other page is kept until the catalogue changes.
    shows_times: bool = False

    @property
    def private(self) -> bool:
        return self.personal or self.console

    @property
    def fixed(self) -> bool:
        """Whether the page lives at one path (its route has no parameter)."""
        return "[" not in self.route


class PageKind(enum.Enum):
    """The pages, in the footer's order. Each member's value is its declaration."""

    HOME = Page("/", Head("", SITE_DESCRIPTION, json_ld=JsonLd.WEBSITE), in_sitemap=True, kept_offline=True,
                nav_label="トップ", tab=Tab("ホーム", "home"), shows_times=True)
    GENRES = Page(
        "/genres",
        Head("ジャンル一覧", "ジャンルから漫画を探す。作品数つきの全ジャンル一覧です。"),
        in_sitemap=True,
        nav_label="ジャンル",
    )
    GENRE = Page("/genre/[name]", query=("sort", "page"), shows_times=True)
    # Every series by one author (writer or artist) or with one tag: listed
    # like a genre; their heads and 404s come from the held catalogue.
    AUTHOR = Page("/author/[name]", query=("sort", "page"), shows_times=True)
    TAG = Page("/tag/[name]", query=("sort", "page"), shows_times=True)
    # 五十音 (core/gojuon.py): one row's titles in 五十音順, each row's count
    # in its tabs. The head names the row; an unknown row is a 404.
    KANA_ROW = Page("/index/[row]", query=("page",), nav_label="五十音", nav_path=KANA_FIRST_ROW, shows_times=True)
    # Their heads depend on the query (period, genre, day) and an unknown
    # genre is a 404, so they are built like the catalogue's pages.
    RANKING = Page("/ranking", in_sitemap=True, nav_label="ランキング", query=("period", "genre", "page"),
                   tab=Tab("ランキング", "ranking"), shows_times=True)
    CALENDAR = Page("/calendar", in_sitemap=True, nav_label="曜日別", query=("day", "page"), shows_times=True)
    SEARCH = Page("/search", Head("漫画を検索", "タイトル・別名・よみがな・ローマ字で漫画を検索できます。"), nav_label="検索",
                  query=("q", "genre", "exclude", "status", "sort", "page"), tab=Tab("検索", "search"), shows_times=True)
    MANGA = Page("/manga/[slug]", shows_times=True)
    # Reflex cannot express `/{slug}-ch-{n}` as a route, so the reader is the
    # single-segment dynamic route and the server refuses (404) every path
    # that does not parse as a chapter path (routes.match).
    READER = Page("/[reader_path]")
    # The visitor's own pages: never indexed, kept for offline use.
    LIBRARY = Page("/library", Head("ライブラリ", "フォローした作品の新着話をまとめて確認できます。", indexable=False),
                   kept_offline=True, nav_label="ライブラリ", shelves=True, personal=True, query=("status", "sort"),
                   tab=Tab("ライブラリ", "library"))
    HISTORY = Page("/history", Head("閲覧履歴", "最近読んだ漫画の続きをすぐに読めます。", indexable=False),
                   kept_offline=True, nav_label="閲覧履歴", shelves=True, personal=True, tab=Tab("履歴", "history"))
    NOTIFICATIONS = Page("/notifications", Head("通知", "フォロー中の作品の新しい話と巻のお知らせです。", indexable=False), personal=True)
    OFFLINE = Page("/offline", Head("保存した話", "オフラインで読むために保存した話の一覧です。", indexable=False),
                   kept_offline=True)
    ACCOUNT = Page("/account", Head("アカウントとデータ", "保存されたデータのダウンロードとアカウントの削除。", indexable=False),
                   personal=True)

    # The operator's console (English, for the operator). A page joins its
    # menu by being declared here with console=True and a console_label.
    ADMIN = Page("/admin", console=True, console_label="Overview", query=("q",))
    ADMIN_SERIES = Page("/admin/series/[slug]", console=True)
    ADMIN_UPLOAD = Page("/admin/upload", console=True, console_label="Upload")
    ADMIN_JOBS = Page("/admin/jobs", console=True, console_label="Jobs")
    ADMIN_AUDIT = Page("/admin/audit", console=True, console_label="Audit log", query=("page",))

    @property
    def page(self) -> Page:
        return self.value

    @property
    def path(self) -> str:
        """The one path of a fixed page."""
        if not self.page.fixed:
            raise ValueError(f"{self.name} has no single path: {self.page.route}")
        return self.page.route


def fixed_paths() -> dict[str, PageKind]:
    return {kind.page.route: kind for kind in PageKind if kind.page.fixed}


def sitemap_paths() -> tuple[str, ...]:
    return tuple(kind.path for kind in PageKind if kind.page.in_sitemap)


def offline_paths() -> tuple[str, ...]:
    """The pages the service worker keeps (assets/js/offline/sw.js SITE_PAGES)."""
    return tuple(kind.path for kind in PageKind if kind.page.kept_offline)


def console_links() -> tuple[tuple[str, str], ...]:
    """(label, path) of each page in the console's menu, in declaration order."""
    return tuple((kind.page.console_label, kind.path) for kind in PageKind if kind.page.console_label)


def footer_links() -> tuple[tuple[str, str], ...]:
    """(label, path) of each page in the footer menu, in declaration order."""
    return tuple((kind.page.nav_label, kind.page.nav_path or kind.path) for kind in PageKind if kind.page.nav_label)


MAX_TABS = 5


def tab_links() -> tuple[tuple[str, str, str], ...]:
    """(label, icon, path) of each page in the phones' bottom tab bar, in
    declaration order; a page joins it by declaring its `tab`."""
    found = tuple((kind.page.tab.label, kind.page.tab.icon, kind.path) for kind in PageKind if kind.page.tab)
    if len(found) > MAX_TABS:
        raise ValueError(f"{len(found)} pages declare a tab; a phone's tab bar holds at most {MAX_TABS}")
    return found
