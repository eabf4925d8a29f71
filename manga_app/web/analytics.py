"""The gtag snippet, written into pages on the production host only."""

from __future__ import annotations

from html import escape

GTAG_URL = "https://www.googletagmanager.com/gtag/js"


def gtag_snippet(measurement_id: str) -> str:
    """Loads gtag. Only an async script with a src: React skips those when it
    hydrates the head, where an inline script would break hydration (React
    #418). assets/js/analytics.jsx finds this tag by its data attribute, sets
    gtag up with the id and reports every page view, the first included (the
    automatic one is turned off there, so each view counts once)."""
    if not measurement_id:
        return ""
    src = escape(f"{GTAG_URL}?id={measurement_id}")
    return f'<script async src="{src}" data-gtag-id="{escape(measurement_id)}"></script>'

