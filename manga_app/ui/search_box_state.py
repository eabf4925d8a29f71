"""The header search box, present on every site page."""

import reflex as rx

from manga_app.core import routes
from manga_app.visitor.notify import notify

# Longer queries are cut rather than refused: nobody types more.
MAX_QUERY_LENGTH = 200


class SearchBoxState(rx.State):
    @rx.event
    def submit(self, form_data: dict):
        # The header form's data; anything else a client sends searches nothing.
        query = form_data.get("q") if isinstance(form_data, dict) else None
        query = " ".join(query.split())[:MAX_QUERY_LENGTH] if isinstance(query, str) else ""
        if not query:
            return notify("warning", "検索語を入力してください", "タイトル・作者・よみがなで探せます。")
        return rx.redirect(routes.search_url(q=query))
