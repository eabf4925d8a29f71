"""五十音 `/index/{row}`: the row's titles in 五十音順, paged; the tabs
go to every row with its count."""

import reflex as rx

from manga_app.core.routes import PageKind
from manga_app.pages.kana_index.state import KanaRowState
from manga_app.ui.listing import listing_page
from manga_app.ui.page import page


@page(PageKind.KANA_ROW, on_load=[KanaRowState.load])
def view() -> rx.Component:
    return listing_page(KanaRowState, count="作品・読みの五十音順", tabs_label="五十音の行", phrased_heading=False,
                        empty_note="この行の作品はまだありません。")
