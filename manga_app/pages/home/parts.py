"""The home's sections: carousels (a row of whole cards that scrolls, with
previous/next arrows on a pointer device), the ranking's cards with their
places, 最新更新's cover grid and 続きを読む."""

from __future__ import annotations

import reflex as rx

from manga_app.ui.badges import badge_row
from manga_app.ui.cards import cover_image, moment_time
from manga_app.ui.link import link
from manga_app.ui.phrased import phrased
from manga_app.ui.actions import action

SHELF_SIZES = "(min-width: 1024px) 150px, (min-width: 768px) 140px, 31vw"
GRID_SIZES = "(min-width: 1024px) 140px, (min-width: 768px) 150px, 31vw"
# 最新更新's covers that load at once, with high priority: what a phone's first screen shows of it (three rows of
# three at 390 x 844), where the page's largest paint is one of them (Lighthouse found the fourth cover
# lazy-loaded: LCP 3.6 s, performance 81).
FIRST_SCREEN_COVERS = 9


def carousel(row_id: str, label: str, items: rx.Var, render) -> rx.Component:
    """`items` drawn by `render` in a row that scrolls sideways and snaps to
    whole cards; the arrows show only where a pointer can hover (CSS)."""
    return rx.el.div(
        rx.el.button("‹", type="button", class_name="carousel-arrow is-previous", aria_label=f"{label}の前へ",
                     aria_controls=row_id, custom_attrs=action("scroll-row", target=row_id, step=-1)),
        rx.el.ul(rx.foreach(items, render), id=row_id, class_name="carousel-row", aria_label=label),
        rx.el.button("›", type="button", class_name="carousel-arrow is-next", aria_label=f"{label}の次へ",
                     aria_controls=row_id, custom_attrs=action("scroll-row", target=row_id, step=1)),
        class_name="carousel",
    )


def _card(card: rx.Var, meta: rx.Component, *, sizes: str = SHELF_SIZES, corner: rx.Component | None = None,
          title_class: str = "card-title phrased", class_name: str = "card",
          position: rx.Var[int] | None = None) -> rx.Component:
    """A home card: the cover with `corner` over it (the badges unless
    given), the title and `meta`, all one link; `position` in the first
    screen's grid, whose first covers load at once."""
    return rx.el.li(
        link(
            cover_image(card, sizes=sizes, position=position, eager=FIRST_SCREEN_COVERS),
            badge_row(card) if corner is None else corner,
            rx.el.span(phrased(card.parts), class_name=title_class),
            rx.el.span(meta, class_name="card-meta"),
            href=card.url,
            class_name="card-link",
        ),
        class_name=class_name,
    )


def shelf_card(card: rx.Var) -> rx.Component:
    """A card of a carousel: cover, badges, title and latest chapter."""
    return _card(card, rx.el.span(card.chapter_label))


def views_card(card: rx.Var) -> rx.Component:
    return _card(card, rx.el.span("閲覧 ", card.views))


def rank_card(card: rx.Var) -> rx.Component:
    """A place of the day's ranking: its number over the cover's corner."""
    place = rx.el.span(card.rank, rx.el.span("位", class_name="visually-hidden"),
                       class_name=rx.cond(card.rank <= 3, "home-rank is-top", "home-rank"))
    return _card(card, rx.el.span("閲覧 ", card.period_views), corner=place, class_name="card rank-card")


def latest_card(card: rx.Var, position: rx.Var[int]) -> rx.Component:
    """最新更新 (the first screen's grid): the cover, the title, the latest chapter and how long ago."""
    meta = rx.fragment(rx.el.span(card.chapter_label, class_name="update-chapter"), moment_time(card.updated))
    return _card(card, meta, sizes=GRID_SIZES, title_class="card-title update-title phrased", position=position)


def continue_card(card: rx.Var) -> rx.Component:
    return rx.el.li(
        link(
            rx.el.img(src=card.cover, alt="", loading="lazy", decoding="async", class_name="cover",
                      custom_attrs={"width": "160", "height": "228"}),
            rx.el.span(phrased(card.parts), class_name="card-title phrased"),
            rx.el.span(rx.el.span(card.chapter_label, class_name="update-chapter"), rx.el.span(card.page_label),
                       class_name="card-meta continue-meta"),
            href=card.url,
            class_name="card-link",
        ),
        class_name="card continue-card",
    )
