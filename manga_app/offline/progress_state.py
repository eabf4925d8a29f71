"""Reading done offline, uploaded by the browser once it is back online
(assets/js/offline/root.jsx): it joins the history and, signed in, the
account, by the rules of live progress reports (manga_app/offline/reports.py,
ReaderState.save_progress)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import reflex as rx

from manga_app.offline.reports import finished, into_history, parse_reports
from manga_app.accounts import reading
from manga_app.accounts import service
from manga_app.read_models.title_cache import load_chapter
from manga_app.visitor.auth_state import AuthState, visitor_uid
from manga_app.visitor.notify import notify
from manga_app.visitor.reading_state import ReadingState

NOT_SAVED = "オフラインで読んだ位置を保存できませんでした"


class OfflineProgressState(rx.State):
    # The newest report taken (the browser's `at`, ms): the browser drops
    # what it sent up to here from its outbox.
    synced_through: int = 0

    @rx.event
    async def upload(self, reports: list):
        now = datetime.now(UTC)
        upload = parse_reports(reports, now=now)
        history = await self.get_state(ReadingState)
        uid = await visitor_uid(self)
        entries = history._entries()
        for report in upload.reports:
            context = await asyncio.to_thread(load_chapter, report.params)
            if context is None:
                continue  # unpublished meanwhile: the browser drops its saved copy and says so
            count = context.chapter.page_count
            entry = reading.HistoryEntry(
                slug=context.series.slug,
                title=context.series.title,
                cover=context.series.cover_small,
                chapter=context.chapter.number,
                chapter_title=context.chapter.title,
                page=min(report.position.page, max(count - 1, 0)),
                offset=report.position.offset,
                read_at=reading.now_iso(report.position.at),
            )
            entries = into_history(entries, report, entry, page_count=count)
            if uid:
                await asyncio.to_thread(service.record, uid, finished(report, count))
        if upload.reports:
            history._save(entries)
        self.synced_through = max(self.synced_through, upload.through)
        if upload.bad:
            return notify("error", NOT_SAVED, "読んだ位置の形式が正しくありません。")
        return None
