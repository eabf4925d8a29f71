"""The reader's end card beyond the next chapter: いいね with its count
(engagement/likes.py), whether the series is complete (完結), and what to read
next: what this series' readers also read (reader/also_read.py), filled up
from the same author and genres (reader/picks.py). Its own state, so the card
grows without the reader's state growing. Following the series is
LibraryState's (the card shows ui/account/follow.py's button)."""

from __future__ import annotations

import asyncio
import secrets

import reflex as rx

from manga_app.accounts import payloads
from manga_app.cards.records import avif_twin
from manga_app.visitor.auth_state import holds_the_account, until_known, visitor_uid
from manga_app.core import routes
from manga_app.core.display import format_count
from manga_app.core.phrases import phrases
from manga_app.read_models.held import held_catalogue
from manga_app.read_models.title_cache import load_chapter
from manga_app.read_models.titles import ChapterContext
from manga_app.engagement import likes
from manga_app.reader import logic, rules
from manga_app.reader.also_read import series_also_read
from manga_app.reader.picks import ALSO_READ, pick_next
from manga_app.reader.state import ReaderState
from manga_app.visitor.notify import notify

NOT_LIKED = "いいねできませんでした"
UNKNOWN_CHAPTER = "この話は見つかりませんでした。"
TOO_MANY_LIKES = "このネットワークからのいいねが多すぎます。明日またお試しください。"


@holds_the_account
class EndCardState(rx.State):
    complete: bool = False
    # [{url, title, cover, why}]: series to read next.
    picks: list[dict[str, str]] = []
    # Whether the first picks are what this series' readers also read (the
    # heading says so), or only the fallback's.
    picks_also_read: bool = False
    # The card's titles (series, next chapter, picks) cut at their phrases
    # (core/phrases.py), by text: end_card.jsx puts a <wbr> between them.
    phrases: dict[str, list[str]] = {}
    # This chapter's いいね: its count, whether this reader likes it, and the
    # chapter they belong to ("slug/number": the card draws only its own chapter's).
    likes: int = 0
    liked: bool = False
    like_key: str = ""

    @rx.var
    def likes_label(self) -> str:
        return format_count(self.likes)

    @rx.event
    async def load(self):
        params = routes.parse_reader_path(self.router.url.path or "/")
        snapshot = await held_catalogue().snapshot()
        catalogue = snapshot.mangas
        index = catalogue.find(params["slug"]) if params else -1
        context = await asyncio.to_thread(load_chapter, params) if params and index >= 0 else None
        reader = await self.get_state(ReaderState)
        self.complete = index >= 0 and catalogue.item(index).status == "completed"
        self.picks, self.picks_also_read, self.likes, self.liked, self.like_key = [], False, 0, False, ""
        if context is None:
            return
        also = await asyncio.to_thread(series_also_read, context.series.id, context.series.slug)
        also_ids = {found: count for slug, count in also.items() if (found := catalogue.find(slug)) >= 0}
        chosen = pick_next(catalogue, index, snapshot.popular.ids, also_read=also_ids)
        self.picks = [
            {"url": routes.manga_url(catalogue.slugs[other]), "title": catalogue.titles[other],
             "cover": catalogue.cover_small(other), "why": why,
             "cover_avif": avif_twin(catalogue.cover_small(other)) if catalogue.avif[other] else ""}
            for other, why in chosen
        ]
        self.picks_also_read = bool(chosen) and chosen[0][1] == ALSO_READ
        texts = {reader.series_title, reader.next_label, *(pick["title"] for pick in self.picks)}
        self.phrases = {text: phrases(text) for text in texts if text}
        await self._show_likes(context)

    async def _keys(self, *, make: bool) -> tuple[str, str]:
        """(browser id, verified uid) of this reader; `make` gives a browser
        without a valid id one (as the reader's view count does)."""
        reader = await self.get_state(ReaderState)
        if make and not rules.visitor_id(reader.visitor_id):
            reader.visitor_id = secrets.token_urlsafe(18)
        return rules.visitor_id(reader.visitor_id), await visitor_uid(self)

    def _forget_account(self) -> None:
        """The session was suspended (visitor/session_guard.py): whether the
        account likes this chapter leaves the state until the card asks again."""
        self.liked, self.like_key = False, ""

    def _show(self, context: ChapterContext, found: likes.LikeState) -> None:
        self.likes, self.liked = found.likes, found.liked
        self.like_key = f"{context.series.slug}/{context.chapter.number}"

    async def _show_likes(self, context: ChapterContext) -> None:
        browser_id, uid = await self._keys(make=False)
        self._show(context, await asyncio.to_thread(likes.chapter_like_state, context.chapter.id, browser_id=browser_id, uid=uid))

    @rx.event
    async def reached_end(self, slug: str = "", number: str = ""):
        """The reader reached the card: the count now, and whether this reader
        (signed in or not: reached before that is known, it asks again then) likes the chapter."""
        if await until_known(self, EndCardState.reached_end(slug, number)) is not None:
            return None  # the reader's own report: no notice
        slug, number = payloads.valid_slug(slug), logic.report_key(number)
        context = await asyncio.to_thread(load_chapter, {"slug": slug, "number": number, "chapter_slug": ""}) if slug and number else None
        if context is not None:
            await self._show_likes(context)

    @rx.event
    async def set_like(self, slug: str = "", number: str = "", liked: bool = True):
        """いいね (`liked`) / いいね済み (taken back) of chapter `number` of
        `slug`, for every reader: the account's when signed in (a session
        this connection did not prove is refused), else this browser's. The
        browser sends the state it wants, not a toggle: sent again after a
        lost connection, it changes nothing."""
        if (waiting := await until_known(self, EndCardState.set_like(slug, number, liked))) is not None:
            return waiting
        slug, number = payloads.valid_slug(slug), logic.report_key(number)
        context = await asyncio.to_thread(load_chapter, {"slug": slug, "number": number, "chapter_slug": ""}) if slug and number else None
        if context is None or not isinstance(liked, bool):
            return notify("error", NOT_LIKED, UNKNOWN_CHAPTER)
        browser_id, uid = await self._keys(make=True)
        try:
            found = await asyncio.to_thread(
                likes.set_chapter_like, context.chapter.id, liked, browser_id=browser_id, uid=uid,
                address=self.router.session.client_ip, day=logic.view_day(),
            )
        except likes.AddressCapReached:
            return notify("error", NOT_LIKED, TOO_MANY_LIKES)
        if found is None:
            return notify("error", NOT_LIKED, UNKNOWN_CHAPTER)
        self._show(context, found)
        return None
