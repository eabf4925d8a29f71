"""ジャンル一覧 `/genres`: every genre of the catalogue with its count."""

import reflex as rx

from manga_app.core.routes import PageKind
from manga_app.ui.page import page
from manga_app.pages.genres.state import GenresState
from manga_app.ui.filters import genre_chips
from manga_app.ui.layout import site_layout


@page(PageKind.GENRES, on_load=[GenresState.load])
def view() -> rx.Component:
    return site_layout(
        rx.el.h1("ジャンル一覧", class_name="page-title"),
        rx.el.p("ジャンルを選ぶと、その作品を一覧できます。数字は作品数です。", class_name="page-lead"),
        rx.cond(
            GenresState.loaded & (GenresState.genres.length() == 0),
            rx.el.p("ジャンルはまだありません。", class_name="empty-note"),
            genre_chips(GenresState.genres, label="ジャンル一覧"),
        ),
        rx.el.h2("五十音から探す", class_name="section-title genres-kana-title"),
        genre_chips(GenresState.kana_rows, label="五十音の行"),
    )
