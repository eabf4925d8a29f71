"""The two layouts of the spec (docs/spec.md section 2): the site layout (header, footer) and the
reader layout (no site chrome, a minimal top bar)."""

import reflex as rx

from manga_app.core import pages, routes
from manga_app.ui.account.notifications_link import notifications_link
from manga_app.ui.account.sign_in import sign_in_area
from manga_app.ui.analytics import page_view_reporter
from manga_app.heads.tags import head_links
from manga_app.core.config import get_settings
from manga_app.ui.navigation_state import NavigationState
from manga_app.ui.search_box import search_box
from manga_app.ui.link import link
from manga_app.ui.not_found import not_found_panel
from manga_app.ui.tab_bar import tab_bar
from manga_app.heads.state import HeadState


class BackLink(rx.Component):
    """assets/js/back_link.jsx: a link to the page before this one on the
    tab's navigation stack, decided against the browser's own path."""

    library = rx.asset("js/back_link.jsx").importable_path
    tag = "BackLink"

    stack: rx.Var[list[str]]


def back_button(label: str = "戻る") -> rx.Component:
    """The back control: in the server-rendered page, so it works from the
    first frame, app or not; right after a navigation, before the stack has
    the new page, it still goes to the page the visitor came from."""
    return BackLink.create("‹ " + label, stack=NavigationState.stack, class_name="back-button", aria_label=label)


def _logo() -> rx.Component:
    return link(
        # The SVG the tab's icon already fetched (1 KB), not the 192 px PNG (5 KB) that the server-rendered
        # page preloaded ahead of its stylesheet.
        rx.el.img(src="/icons/icon.svg", alt="", custom_attrs={"width": "28", "height": "28"}, class_name="logo-mark"),
        rx.el.span(get_settings().site_name, class_name="logo-text"),
        href=routes.HOME,
        class_name="logo",
        aria_label=f"{get_settings().site_name} トップへ",
    )


def _sign_in_area() -> rx.Component:
    # A fixed-size slot whatever the auth state (ui/account/sign_in.py),
    # so the header never shifts when sign-in state arrives.
    return sign_in_area()


def site_header(*, search: bool = True) -> rx.Component:
    return rx.el.header(
        rx.el.div(
            _logo(),
            # A not-found page offers its own box instead (ui/not_found.py).
            rx.cond(HeadState.found, search_box(label="サイト内検索", input_id="site-search")) if search else rx.fragment(),
            rx.el.nav(
                link("ジャンル", href=routes.GENRES, class_name="header-link"),
                notifications_link(),
                _sign_in_area(),
                class_name="header-nav",
                aria_label="メインメニュー",
            ),
            class_name=rx.cond(HeadState.found, "header-inner", "header-inner no-search") if search else "header-inner no-search",
        ),
        class_name="site-header",
    )


def site_footer() -> rx.Component:
    return rx.el.footer(
        rx.el.nav(
            *(link(label, href=path) for label, path in pages.footer_links()),
            class_name="footer-links",
            aria_label="フッターメニュー",
        ),
        rx.el.p(f"© {get_settings().site_name}", class_name="footer-note"),
        class_name="site-footer",
    )


def site_layout(*children: rx.Component, show_back: bool = True, header_search: bool = True) -> rx.Component:
    """`header_search=False` on a page with its own search box: one box, not
    two (the search page, the not-found page)."""
    return rx.el.div(
        head_links(),
        page_view_reporter(measurement_id=HeadState.analytics_id),
        site_header(search=header_search),
        rx.el.main(
            back_button() if show_back else rx.fragment(),
            # Client-side navigation can reach a title or chapter that does
            # not exist (the server would have answered 404): say so.
            rx.cond(HeadState.found, rx.fragment(*children), not_found_panel()),
            class_name="site-main",
            id="main",
        ),
        site_footer(),
        tab_bar(),
        class_name="layout-site",
        data_layout="site",
    )


def reader_layout(*children: rx.Component, title: rx.Var | str = "") -> rx.Component:
    return rx.cond(HeadState.found, _reader_frame(*children, title=title), site_layout(not_found_panel()))


def _reader_frame(*children: rx.Component, title: rx.Var | str) -> rx.Component:
    return rx.el.div(
        head_links(),
        page_view_reporter(measurement_id=HeadState.analytics_id),
        # A landmark of its own, like the reader's menu: nothing is outside one.
        rx.el.header(
            back_button(),
            rx.el.span(title, class_name="reader-bar-title"),
            class_name="reader-bar",
            aria_label="作品と話",
        ),
        rx.el.main(*children, class_name="reader-main", id="main"),
        class_name="layout-reader",
        data_layout="reader",
    )
