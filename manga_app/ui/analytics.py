"""Page-view reporting on route changes (see assets/js/analytics.jsx)."""

import reflex as rx


class PageViewReporter(rx.Component):
    library = rx.asset("js/analytics.jsx").importable_path
    tag = "PageViewReporter"

    # The GA4 id on the production host, else "" (no analytics).
    measurement_id: rx.Var[str]


page_view_reporter = PageViewReporter.create
