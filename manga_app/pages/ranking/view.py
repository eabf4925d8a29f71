"""ランキング `/ranking`: places, movement and views in the period, paged."""

import reflex as rx

from manga_app.core.pages import PageKind
from manga_app.pages.ranking.state import RankingState
from manga_app.ui.badges import badge_row
from manga_app.ui.cards import board_results, cover_image, placeholder_rows
from manga_app.ui.filters import link_tabs
from manga_app.ui.layout import site_layout
from manga_app.ui.link import link
from manga_app.ui.page import page
from manga_app.ui.phrased import phrased


def rank_row(card: rx.Var) -> rx.Component:
    return rx.el.li(
        link(
            rx.el.span(card.rank, rx.el.span("位", class_name="visually-hidden"),
                       class_name=rx.cond(card.rank <= 3, "rank-number is-top", "rank-number")),
            rx.el.span(cover_image(card, sizes="64px"), badge_row(card), class_name="rank-cover"),
            rx.el.span(
                rx.el.span(phrased(card.parts), class_name="rank-title phrased"),
                rx.el.span(
                    rx.el.span(card.chapter_label, class_name="update-chapter"),
                    rx.el.span("閲覧 ", card.period_views, class_name="rank-views"),
                    class_name="update-meta",
                ),
                class_name="update-text",
            ),
            rx.el.span(card.movement_label, rx.el.span(card.movement_text, class_name="visually-hidden"),
                       class_name="rank-move is-" + card.movement.to_string(use_json=False), title=card.movement_text),
            href=card.url,
            class_name="rank-link",
        ),
        class_name="rank-row",
    )


@page(PageKind.RANKING, on_load=[RankingState.load])
def view() -> rx.Component:
    return site_layout(
        rx.el.div(
            rx.el.h1(rx.cond(RankingState.genre != "", RankingState.genre + "の", ""), RankingState.period_label,
                     "ランキング", class_name="page-title"),
            rx.el.p("読んだ人の数（1人1日1回）で並べています。↑↓は前の期間との比較です。", class_name="page-lead"),
            class_name="page-head",
        ),
        link_tabs(RankingState.period_tabs, label="期間"),
        link_tabs(RankingState.genre_tabs, label="ジャンル"),
        board_results(
            RankingState, RankingState.rows,
            rx.el.ol(rx.foreach(RankingState.rows, rank_row), class_name="rank-list", aria_label="ランキング"),
            empty="この期間に読まれた作品はまだありません。", placeholder=placeholder_rows(10),
        ),
    )
