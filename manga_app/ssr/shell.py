"""Where the built app's files are."""

from __future__ import annotations

from pathlib import Path

from reflex.utils import prerequisites
from reflex_base import constants

# The built shell of routes Reflex did not prerender: what a page is served
# in when the server cannot render it.
SPA_FALLBACK = "__spa-fallback.html"


def static_dir() -> Path:
    return (prerequisites.get_web_dir() / constants.Dirs.STATIC).resolve()
