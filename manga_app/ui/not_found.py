"""The Japanese not-found panel: the 404 page, and any page whose title,
genre or chapter turns out not to exist after a client-side navigation.
In the site's own look (no stock illustration), with the one search box of
the page (the header leaves its own out) and, for an unknown chapter of a
known series, the way to that series."""

import reflex as rx

from manga_app.core import routes
from manga_app.heads.state import HeadState
from manga_app.ui.link import link
from manga_app.ui.phrased import phrased_text
from manga_app.ui.search_box import search_box

NOT_FOUND_MESSAGE = "お探しのページは見つかりませんでした。"


def not_found_panel() -> rx.Component:
    return rx.el.section(
        rx.el.p("404", class_name="not-found-code", aria_hidden="true"),
        rx.el.h1("ページが見つかりません", class_name="not-found-title"),
        rx.el.p(*phrased_text(NOT_FOUND_MESSAGE + "URLが正しいかご確認ください。"), class_name="not-found-message phrased"),
        rx.cond(
            HeadState.series_url != "",
            link("「", HeadState.series_title, "」の作品ページへ", href=HeadState.series_url,
                 class_name="button-primary not-found-series"),
        ),
        search_box(label="作品を探す", input_id="not-found-search-input", class_name="not-found-search"),
        rx.el.nav(
            link("トップページへ戻る", href=routes.HOME),
            link("ジャンル一覧", href=routes.GENRES),
            class_name="not-found-links",
            aria_label="ほかのページへ",
        ),
        class_name="not-found",
    )
