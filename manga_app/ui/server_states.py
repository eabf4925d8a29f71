"""The page's server-rendered states, handed to the browser (assets/js/page_state.jsx)."""

import reflex as rx


class PageState(rx.Component):
    """Renders its children, then the JSON seed the server rendered them with."""

    library = rx.asset("js/page_state.jsx").importable_path
    tag = "PageState"


def page_state_wrap(_stateful: bool) -> rx.Component:
    """For rx.App(extra_app_wraps=...)."""
    return PageState.create()
