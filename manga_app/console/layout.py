"""The console's frame: a menu of the console's pages (core/pages.py
`console_label`: a new page such as /admin/upload joins it by being declared)
beside the page's own content, in English. To every reader it is the site's
ordinary not-found page, as the server rendered it; it turns into the
console when the verified token says the visitor is an operator."""

import reflex as rx

from manga_app.visitor.auth_state import AuthState
from manga_app.visitor.operator_state import OperatorState
from manga_app.core import pages, routes
from manga_app.ui.layout import site_layout
from manga_app.ui.link import link
from manga_app.ui.not_found import not_found_panel


def _menu() -> rx.Component:
    return rx.el.nav(
        link("Console", href=routes.ADMIN, class_name="console-brand"),
        rx.el.ul(*(rx.el.li(link(label, href=path, class_name="console-menu-link")) for label, path in pages.console_links()),
                 class_name="console-menu-list"),
        rx.el.div(
            rx.el.span(OperatorState.operator_email, class_name="console-who"),
            link("View site", href=routes.HOME, class_name="console-menu-link"),
            class_name="console-menu-end",
        ),
        class_name="console-menu",
        aria_label="Console menu",
    )


def console_layout(title: str | rx.Var, *children: rx.Component, on_open=None) -> rx.Component:
    """`on_open`: the page's load, run when the console appears (the
    operator's token is verified after the page loaded)."""
    return rx.cond(
        OperatorState.operator & ~AuthState.loading,
        rx.el.div(
            _menu(),
            rx.el.main(rx.el.h1(title, class_name="console-title"), *children, class_name="console-main",
                       id="main", on_mount=on_open),
            class_name="layout-console",
            lang="en",
            data_layout="console",
        ),
        site_layout(not_found_panel()),
    )


def notices(messages: rx.Var, errors: rx.Var, name: str = "form") -> rx.Component:
    """The outcome of the last change: its lines, or the form-wide error."""
    return rx.fragment(
        rx.cond(errors.contains(name), rx.el.p(errors[name], class_name="console-error", role="alert")),
        rx.el.div(rx.el.ul(rx.foreach(messages, lambda line: rx.el.li(line)), class_name="console-messages"), role="status"),
    )


def field_error(errors: rx.Var, name: str) -> rx.Component:
    return rx.cond(errors.contains(name), rx.el.p(errors[name], class_name="console-error", id=f"{name}-error"))
