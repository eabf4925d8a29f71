"""This browser's visitor id, made before the app connects (assets/js/visitor.js)."""

import reflex as rx


class VisitorId(rx.Component):
    """Renders its children; its module makes the browser's visitor id cookie as it loads."""

    library = rx.asset("js/visitor.js").importable_path
    tag = "VisitorId"


def visitor_id_wrap(_stateful: bool) -> rx.Component:
    """For rx.App(extra_app_wraps=...)."""
    return VisitorId.create()
