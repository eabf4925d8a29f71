"""Reflex configuration: kept tiny; typed settings live in manga_app/core/config.py."""

import os

import reflex as rx
from reflex.plugins.sitemap import SitemapPlugin

from manga_app.core.db import DEFAULT_DB_URL


# Visitor state: in Redis (with a TTL, shared by every worker) when
# REFLEX_REDIS_URL is set, else in this one process's memory with the same
# expiry. Never Reflex's default "disk" mode: it writes pickles per tab under
# .states/ and its expiry sweep stat()s every one of them, stalling the worker.
_STATE_MODE = "redis" if os.environ.get("REFLEX_REDIS_URL") else "memory"
# How long a visitor's state outlives their last event (seconds), in either
# mode; REFLEX_REDIS_TOKEN_EXPIRATION overrides it. A reload or a reconnect
# within it finds the tab's state; after it the tab hydrates afresh.
STATE_TTL_SECONDS = 30 * 60

config = rx.Config(
    app_name="manga_app",
    # The embedded default is a SQLite file under data/; REFLEX_DB_URL (read by
    # Reflex itself) points production at PostgreSQL.
    db_url=os.environ.get("REFLEX_DB_URL", DEFAULT_DB_URL),
    state_manager_mode=_STATE_MODE,
    redis_token_expiration=STATE_TTL_SECONDS,
    show_built_with_reflex=False,
    telemetry_enabled=False,
    # The site has one (light) look; never follow a dark OS setting halfway.
    default_color_mode="light",
    # Our backend serves /sitemap.xml from the catalogue (the plugin skips
    # dynamic routes, which are most of the site).
    disable_plugins=[SitemapPlugin],
)
