"""The gtag snippet, written into pages on the production host only."""

from __future__ import annotations

import json
from html import escape

GTAG_URL = "https://www.googletagmanager.com/gtag/js"


def gtag_snippet(measurement_id: str) -> str:
    """Loads gtag; page views are sent by the client on every route change
    (assets/js/analytics.jsx), the first one included, so the automatic one
    is turned off to count each view once."""
    if not measurement_id:
        return ""
    src = escape(f"{GTAG_URL}?id={measurement_id}")
    config = json.dumps(measurement_id)
    return (
        f'<script async src="{src}"></script>'
        "<script>window.dataLayer=window.dataLayer||[];"
        "function gtag(){dataLayer.push(arguments)}"
        f"gtag('js',new Date());gtag('config',{config},{{send_page_view:false}});</script>"
    )
