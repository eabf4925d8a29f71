"""Reflex configuration: kept tiny; typed settings live in manga_app/config.py."""

import os

import reflex as rx
from reflex.plugins.sitemap import SitemapPlugin

# The embedded default is a SQLite file under data/; REFLEX_DB_URL (read by
# Reflex itself) points production at PostgreSQL.
_DEFAULT_DB_URL = "sqlite:///data/manga.db"

config = rx.Config(
    app_name="manga_app",
    db_url=os.environ.get("REFLEX_DB_URL", _DEFAULT_DB_URL),
    show_built_with_reflex=False,
    telemetry_enabled=False,
    # The site has one (light) look; never follow a dark OS setting halfway.
    default_color_mode="light",
    # Our backend serves /sitemap.xml from the catalogue (the plugin skips
    # dynamic routes, which are most of the site).
    disable_plugins=[SitemapPlugin],
)
