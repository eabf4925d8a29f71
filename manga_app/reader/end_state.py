"""The reader's end card beyond the next chapter: whether the series is
complete (完結) and what to read after its last chapter (reader/picks.py).
Its own state, so the card can grow (いいね, readers also read) without the
reader's state growing."""

from __future__ import annotations

import reflex as rx

from manga_app.core import routes
from manga_app.core.phrases import phrases
from manga_app.read_models.held import held_catalogue
from manga_app.reader.picks import pick_next
from manga_app.reader.state import ReaderState


class EndCardState(rx.State):
    complete: bool = False
    # [{url, title, cover, why}]: series to read next, shown after the last chapter.
    picks: list[dict[str, str]] = []
    # The card's titles (series, next chapter, picks) cut at their phrases
    # (core/phrases.py), by text: end_card.jsx puts a <wbr> between them.
    phrases: dict[str, list[str]] = {}

    @rx.event
    async def load(self):
        found = routes.match(self.router.url.path or "/")
        slug = found.params.get("slug", "") if found and found.kind is routes.PageKind.READER else ""
        snapshot = await held_catalogue().snapshot()
        catalogue = snapshot.mangas
        index = catalogue.find(slug) if slug else -1
        reader = await self.get_state(ReaderState)
        self.complete = index >= 0 and catalogue.item(index).status == "completed"
        self.picks = [
            {"url": routes.manga_url(catalogue.slugs[other]), "title": catalogue.titles[other],
             "cover": catalogue.cover_small(other), "why": why}
            for other, why in (pick_next(catalogue, index, snapshot.popular.ids) if index >= 0 else [])
        ]
        texts = {reader.series_title, reader.next_label, *(pick["title"] for pick in self.picks)}
        self.phrases = {text: phrases(text) for text in texts if text}
