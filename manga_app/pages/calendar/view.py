"""曜日別 `/calendar`: ongoing series under the weekday they usually update on."""

import reflex as rx

from manga_app.core.pages import PageKind
from manga_app.pages.calendar.state import CalendarState
from manga_app.ui.cards import board_results, card_grid, placeholder_grid
from manga_app.ui.filters import link_tabs
from manga_app.ui.layout import site_layout
from manga_app.ui.page import page


@page(PageKind.CALENDAR, on_load=[CalendarState.load])
def view() -> rx.Component:
    return site_layout(
        rx.el.div(
            rx.el.h1(CalendarState.day_label, "更新の漫画", class_name="page-title"),
            rx.el.p(
                "連載中の作品を、最近8週間に3日以上更新があり、その3分の2以上が同じ曜日の場合にその曜日に並べています。"
                "それ以外は不定期です。",
                class_name="page-lead",
            ),
            class_name="page-head",
        ),
        link_tabs(CalendarState.day_tabs, label="曜日"),
        rx.el.p(
            rx.cond(CalendarState.loaded, rx.cond(CalendarState.counting, "集計中", CalendarState.total.to_string() + "作品"), "読み込み中…"),
            rx.cond(CalendarState.pages > 1, rx.el.span(" ・ ", CalendarState.page, " / ", CalendarState.pages, "ページ")),
            class_name="result-count",
            aria_live="polite",
        ),
        board_results(
            CalendarState, CalendarState.cards, card_grid(CalendarState.cards, label="作品一覧"),
            empty="この曜日に更新される連載はありません。", placeholder=placeholder_grid(12),
        ),
    )
