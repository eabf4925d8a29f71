"""Wiring only: the app, its pages and the HTTP layer in front of Reflex."""

import reflex as rx

from manga_app.accounts.settings import check_firebase_at_startup
from manga_app.ui import antd
from manga_app.ui.account.root import firebase_app_wrap
from manga_app.ui.server_states import page_state_wrap
from manga_app.ui.visitor import visitor_id_wrap
from manga_app.core.config import content_key, get_settings
from manga_app.offline.parts import offline_app_wrap
from manga_app.visitor.client_commands import client_commands_wrap
from manga_app.pages import register_pages
from manga_app.read_models import discovery
from manga_app.platform import (
    client_storage_in_a_stable_order,
    leave_out_color_mode_script,
    own_stylesheet_link,
    redis_waits_out_outages,
    versions,
)
from manga_app.ssr.pages import warm_up
from manga_app.web import bounded_logs
from manga_app.web.publish_push import watch_publishes
from manga_app.web.middleware import site_http_layer

# Fail fast on framework versions the platform wing was not written for, on a
# placeholder or malformed CONTENT_KEY, or on emulator mode against a real
# Firebase project, before serving anything.
versions.check()
content_key(get_settings())
check_firebase_at_startup()
leave_out_color_mode_script()
own_stylesheet_link()
client_storage_in_a_stable_order()
redis_waits_out_outages()

app = rx.App(
    html_lang="ja",
    # Reflex's CSS reset has invalid font declarations: the site's copy
    # (assets/css/reset.css) is valid and comes first, as Reflex's did.
    reset_style=False,
    # The browser's error reports: one bounded line each, identical ones once a minute.
    frontend_exception_handler=bounded_logs.frontend_exception,
    stylesheets=[
        "/css/reset.css",
        "/css/antd.css",
        "/css/site.css",
        "/css/browse.css",
        "/css/reader_pages.css",
        "/css/reader.css",
        "/css/account.css",
        "/css/offline.css",
        "/css/discover.css",
        "/css/console.css",
        "/css/home.css",
    ],
    head_components=[
        rx.el.meta(name="theme-color", content="#f8413b"),
        rx.el.link(rel="manifest", href="/manifest.json"),
        rx.el.link(rel="icon", href="/favicon.ico", sizes="any"),
        rx.el.link(rel="icon", href="/icons/icon.svg", type="image/svg+xml"),
        rx.el.link(rel="apple-touch-icon", href="/icons/apple-touch-icon.png"),
    ],
    extra_app_wraps={
        (50, "AntdProvider"): lambda _stateful: antd.antd_provider(
            notification_max_count=get_settings().notification_max_count
        ),
        # Once for every page: who is signed in, wherever the visitor is.
        (45, "FirebaseAuth"): firebase_app_wrap,
        # The states the server rendered the page with (manga_app/ssr).
        (40, "PageState"): page_state_wrap,
        # This browser's visitor id, made before the app's first event (the view count).
        (35, "VisitorId"): visitor_id_wrap,
        # What event handlers ask the browser to do, without eval (visitor/client_commands.py).
        (30, "ClientCommands"): client_commands_wrap,
        # Reflex's overlay (its connection notices are in English) gives way to
        # the service worker, the Japanese notices, reading done offline (assets/js/offline).
        (5, "Overlay"): offline_app_wrap,
    },
    api_transformer=site_http_layer,
    # No Reflex toasts: the site's notices are antd notifications
    # (visitor/notify.py). The default toast provider loaded sonner and inserted
    # its stylesheet on every page while the page hydrated.
    toaster=None,
)
register_pages(app)
app.register_lifespan_task(warm_up)
# The rankings computed at start, in a thread, rather than for the first visitor.
app.register_lifespan_task(discovery.warm_up)
# New units pushed to open tabs within seconds of a publish (web/publish_push.py).
app.register_lifespan_task(watch_publishes)
