"""The badges of a card (records.Badge: 完結, NEW, 更新), laid over the top
corner of its cover so that a card is as tall with badges as without."""

from __future__ import annotations

import reflex as rx


def badge_row(card: rx.Var) -> rx.Component:
    return rx.cond(
        card.badges.length() > 0,
        rx.el.span(
            rx.foreach(card.badges, lambda badge: rx.el.span(badge.text, class_name="badge badge-" + badge.kind)),
            class_name="badges",
        ),
    )
