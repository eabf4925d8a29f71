"""Series cards and the placeholders of cards and rows. Covers carry width and
height attributes and the placeholders have the cards' exact size, so
nothing moves when the page's data or the images arrive."""

from __future__ import annotations

import reflex as rx

from manga_app.ui.badges import badge_row
from manga_app.ui.link import link
from manga_app.ui.phrased import phrased
from manga_app.ui.pager import pager
from manga_app.cards.records import COVER_HEIGHT, COVER_WIDTH, Card

CARD_SIZES = "(min-width: 768px) 160px, 31vw"


# A grid's first row on a phone (three columns): on screen at first paint,
# so fetched at once and first; the first is usually the largest paint.
_FIRST_ROW = 3


def moment_time(moment: rx.Var, class_name: str = "") -> rx.Component:
    """A records.Moment: its text, with its ISO form as the machine-readable time."""
    return rx.el.time(moment.text, date_time=moment.iso, class_name=class_name)


def cover_picture(image: rx.Component, avif_srcset: rx.Var[str], sizes: str) -> rx.Component:
    """A cover as a <picture>: its AVIF sizes for a browser that shows AVIF,
    else the <img>'s WebP. A source whose srcset is empty ("" when the
    catalogue has no AVIF) is passed over by the browser."""
    return rx.el.picture(
        rx.el.source(type="image/avif", custom_attrs={"srcSet": avif_srcset, "sizes": sizes}),
        image,
        class_name="cover-picture",
    )


def cover_image(card: rx.Var, *, sizes: str = CARD_SIZES, position: rx.Var[int] | None = None,
                eager: int = _FIRST_ROW) -> rx.Component:
    """A card's cover, loaded lazily unless it is among the grid's first `eager` (`position`)."""
    first_row = None if position is None else position < eager
    return cover_picture(rx.el.img(
        src=card.cover,
        alt="",
        loading="lazy" if first_row is None else rx.cond(first_row, "eager", "lazy"),
        decoding="async",
        class_name="cover",
        custom_attrs={"width": str(COVER_WIDTH), "height": str(COVER_HEIGHT), "srcSet": card.srcset, "sizes": sizes,
                      **({} if first_row is None else {"fetchPriority": rx.cond(first_row, "high", "auto")})},
    ), card.avif_srcset, sizes)


def _match_line(card: rx.Var) -> rx.Component:
    return rx.cond(
        card.match_parts.length() > 0,
        rx.el.span(
            "よみ・別名: ",
            rx.foreach(card.match_parts, lambda part: rx.cond(part.hit, rx.el.mark(part.text), part.text)),
            class_name="card-match",
        ),
    )


def series_card(card: rx.Var, position: rx.Var[int] | None = None) -> rx.Component:
    return rx.el.li(
        link(
            cover_image(card, position=position),
            badge_row(card),
            rx.el.span(phrased(card.parts), class_name="card-title phrased"),
            _match_line(card),
            rx.el.span(
                rx.el.span(card.chapter_label),
                moment_time(card.updated),
                class_name="card-meta",
            ),
            href=card.url,
            class_name="card-link",
        ),
        # Its own link beside the card's (links never nest): the author's page.
        rx.cond(card.author != "", link(card.author, href=card.author_url, class_name="card-author"),
                rx.el.span(class_name="card-author")),
        class_name="card",
    )


def card_grid(cards: rx.Var[list[Card]], *, label: str) -> rx.Component:
    return rx.el.ul(rx.foreach(cards, lambda card, index: series_card(card, index)), class_name="card-grid",
                    aria_label=label)


def placeholder_grid(count: int, *, kind: str = "card-grid") -> rx.Component:
    """Empty boxes the size of the real cards, shown until the data arrives."""
    return rx.el.ul(
        *[rx.el.li(rx.el.span(class_name="cover placeholder"), class_name="card placeholder-card") for _ in range(count)],
        class_name=f"{kind} is-placeholder",
        aria_hidden="true",
    )


def placeholder_rows(count: int) -> rx.Component:
    return rx.el.ul(
        *[rx.el.li(class_name="update-row placeholder-row") for _ in range(count)],
        class_name="update-list is-placeholder",
        aria_hidden="true",
    )


def board_results(state: type, items: rx.Var, listed: rx.Component, *, empty: str, placeholder: rx.Component) -> rx.Component:
    """A ranking's or calendar day's results and pager; `state` has loaded,
    counting (the board is not computed yet: 集計中) and pager."""
    return rx.el.div(
        rx.cond(
            state.loaded,
            rx.cond(
                items.length() > 0,
                listed,
                rx.cond(
                    state.counting,
                    rx.el.p("集計中です。まもなく表示されます。しばらくしてから再読み込みしてください。",
                            class_name="empty-note counting-note", role="status"),
                    rx.el.p(empty, class_name="empty-note"),
                ),
            ),
            placeholder,
        ),
        pager(state.pager),
        class_name="browse-results",
        data_loaded=state.loaded,
    )
