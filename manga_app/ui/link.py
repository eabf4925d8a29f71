"""Internal links as React Router links: client-side navigation, no reload,
and no Radix Themes CSS (rx.link would pull it in)."""

from typing import Literal

import reflex as rx


class RouterLink(rx.Component):
    library = "react-router"
    tag = "Link"

    to: rx.Var[str]
    prefetch: rx.Var[Literal["none", "intent", "render", "viewport"]]
    replace: rx.Var[bool]


def link(*children, href: str | rx.Var, **props) -> rx.Component:
    """An internal link; `href` is a path built with manga_app.core.routes."""
    return RouterLink.create(*children, to=href, prefetch="intent", **props)
