"""作品 `/manga/{slug}`: cover, titles, authors, genres, status, summary,
views, chapters newest first, read/continue, follow and share."""

import reflex as rx

from manga_app.ui.account.follow import follow_button
from manga_app.ui.account.lists import status_picker
from manga_app.visitor.lists_state import ListsState
from manga_app.pages.title.chapter_list import chapter_list
from manga_app.ui.cards import cover_picture, series_card
from manga_app.ui.layout import site_layout
from manga_app.ui.link import link
from manga_app.ui.phrased import phrased
from manga_app.pages.title.state import TitleState
from manga_app.core.routes import PageKind
from manga_app.ui.page import page
from manga_app.cards.records import COVER_HEIGHT, COVER_WIDTH
from manga_app.visitor.library_state import LibraryState
from manga_app.offline.parts import series_offline_save
from manga_app.ui.actions import action


# Web Share where the browser has it, else copy the address.
def _cover() -> rx.Component:
    sizes = "(min-width: 768px) 200px, 40vw"
    return cover_picture(rx.el.img(
        src=TitleState.cover,
        alt=TitleState.title + "の表紙",
        loading="eager",
        decoding="async",
        class_name="title-cover",
        custom_attrs={
            "width": str(COVER_WIDTH),
            "height": str(COVER_HEIGHT),
            "srcSet": TitleState.cover_srcset,
            "sizes": sizes,
            "fetchPriority": "high",
        },
    ), TitleState.cover_avif_srcset, sizes)


def _name(name) -> rx.Component:
    """An author's name with its reading above it (ruby), when it has one."""
    return link(
        rx.cond(name.reading, rx.el.ruby(name.name, rx.el.rt(name.reading)), name.name),
        href=name.url,
        class_name="author",
    )


def _facts() -> rx.Component:
    def row(label: str, value: rx.Component) -> rx.Component:
        return rx.el.div(rx.el.dt(label), rx.el.dd(value), class_name="fact")

    return rx.el.dl(
        row("作者", rx.foreach(TitleState.authors, _name)),
        row("状態", TitleState.status_label),
        row("閲覧数", TitleState.views),
        row("フォロワー", rx.el.span(TitleState.followers, "人", class_name="title-followers")),
        row("更新", TitleState.updated),
        class_name="title-facts",
    )


def _actions() -> rx.Component:
    # As on ジャンプ+ and ピッコマ: once a visitor has started, 続きを読む (with
    # the chapter and page) is the one primary action and starting over secondary.
    started = TitleState.progress.continue_url != ""
    return rx.el.div(
        rx.cond(
            started,
            link(TitleState.progress.continue_label, href=TitleState.progress.continue_url, class_name="button-primary read-continue"),
        ),
        link("最初から読む", href=TitleState.first_url,
             class_name=rx.cond(started, "button-secondary read-first", "button-primary read-first")),
        follow_button(TitleState.slug),
        rx.el.button("共有", type="button", custom_attrs=action("share"), class_name="button-outline share-button"),
        class_name=rx.cond(started, "title-actions is-started", "title-actions"),
    )


def _header() -> rx.Component:
    return rx.el.div(
        _cover(),
        rx.el.div(
            rx.el.h1(phrased(TitleState.title_parts), class_name="title-name phrased"),
            rx.cond(
                TitleState.aliases.length() > 0,
                rx.el.p(rx.foreach(TitleState.alias_parts, lambda parts: rx.el.span(phrased(parts), class_name="alias phrased")), class_name="title-aliases"),
            ),
            _facts(),
            class_name="title-info",
        ),
        class_name="title-head",
    )


def _body() -> rx.Component:
    return rx.el.article(
        _header(),
        rx.el.ul(
            rx.foreach(TitleState.genres, lambda chip: rx.el.li(link(chip.label, href=chip.href, class_name="chip"))),
            class_name="chip-row title-genres",
            aria_label="ジャンル",
        ),
        rx.cond(
            TitleState.tags.length() > 0,
            rx.el.ul(
                rx.foreach(TitleState.tags, lambda tag: rx.el.li(link(tag.label, href=tag.href, class_name="title-tag"))),
                class_name="title-tags",
                aria_label="タグ",
            ),
        ),
        _actions(),
        rx.el.div(rx.el.span("読書状態"), status_picker(TitleState.slug, label="読書状態"), class_name="title-status"),
        # Drawn by the server too (disabled until the app runs), so nothing moves.
        series_offline_save(chapters=TitleState.chapters, read=TitleState.progress.read, slug=TitleState.slug),
        rx.el.p(TitleState.summary, class_name="title-summary"),
        rx.cond(
            TitleState.volumes.length() > 0,
            rx.el.section(
                rx.el.h2("巻一覧", rx.el.span(TitleState.volumes.length().to_string() + "巻", class_name="chapter-count"), class_name="section-title"),
                chapter_list(TitleState.volumes, read=TitleState.progress.read, left=TitleState.progress.left,
                             left_width=TitleState.progress.left_width, label="巻一覧（新しい順）"),
                class_name="title-chapters title-volumes",
            ),
        ),
        rx.cond(
            (TitleState.chapters.length() > 0) | (TitleState.volumes.length() == 0),
            rx.el.section(
                rx.el.h2("話一覧", rx.el.span(TitleState.chapters.length().to_string() + "話", class_name="chapter-count"), class_name="section-title"),
                chapter_list(TitleState.chapters, read=TitleState.progress.read, left=TitleState.progress.left,
                             left_width=TitleState.progress.left_width),
                class_name="title-chapters",
            ),
        ),
        rx.cond(
            TitleState.related.length() > 0,
            rx.el.section(
                rx.el.h2("関連作品", id="title-related", class_name="section-title"),
                # Far below the first screen: every cover lazy (card_grid's first row is eager).
                rx.el.ul(rx.foreach(TitleState.related, lambda card: series_card(card)), class_name="card-grid",
                         aria_label="関連作品"),
                class_name="title-related",
                aria_labelledby="title-related",
            ),
        ),
        class_name="title-page",
    )


def _placeholder() -> rx.Component:
    return rx.el.div(
        rx.el.div(rx.el.span(class_name="title-cover placeholder"), rx.el.div(class_name="title-info"), class_name="title-head"),
        class_name="title-page is-placeholder",
        aria_hidden="true",
    )


# The account's newest progress from other devices, for read marks and 続きを読む.
@page(PageKind.MANGA, on_load=[TitleState.load, LibraryState.pull, ListsState.opened])
def view() -> rx.Component:
    return site_layout(rx.cond(TitleState.loaded, _body(), _placeholder()))
