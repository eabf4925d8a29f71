"""The reader (`/{slug}-ch-{n}[-{chapter-slug}]`), in the reader layout."""

import reflex as rx

from manga_app.reader import rules
from manga_app.ui.layout import reader_layout
from manga_app.reader.panels import error_panel, loading_panel
from manga_app.reader.viewer import manga_reader
from manga_app.reader.state import ReaderState
from manga_app.reader.end_state import EndCardState
from manga_app.core.routes import PageKind
from manga_app.ui.page import page
from manga_app.heads.state import HeadState
from manga_app.visitor.library_state import LibraryState
from manga_app.ui.account.lists import finished_banner
from manga_app.ui.account.follow import follow_button


def _reader() -> rx.Component:
    return manga_reader(
        # Shown while the state is still another chapter's.
        loading_panel(),
        loaded_path=ReaderState.loaded_path,
        # The chapter's own double-page offset, worked out at import (見開き 自動).
        default_offset=ReaderState.spread_offset,
        view_id=ReaderState.view_id,
        pages=ReaderState.pages,
        alt_prefix=ReaderState.alt_prefix,
        heading=ReaderState.chapter_label,
        series_slug=ReaderState.series_slug,
        chapter_number=ReaderState.chapter_number,
        series_title=ReaderState.series_title,
        series_url=ReaderState.series_url,
        chapter_url=ReaderState.chapter_url,
        prev_url=ReaderState.prev_url,
        prev_label=ReaderState.prev_label,
        next_url=ReaderState.next_url,
        next_label=ReaderState.next_label,
        chapters=ReaderState.chapters,
        mode=ReaderState.mode,
        direction=ReaderState.direction,
        direction_choice=ReaderState.direction_choice,
        settings=ReaderState.settings,
        preload=ReaderState.preload,
        initial_page=ReaderState.resume_page,
        initial_offset=ReaderState.resume_offset,
        initial_at=ReaderState.resume_at,
        next_warm=ReaderState.next_warm,
        first_screen=ReaderState.first_screen,
        series_complete=EndCardState.complete,
        end_picks=EndCardState.picks,
        end_picks_also_read=EndCardState.picks_also_read,
        end_phrases=EndCardState.phrases,
        likes=EndCardState.likes_label,
        liked=EndCardState.liked,
        like_key=EndCardState.like_key,
        # The place of the series' reading status once it has a picker.
        end_follow=follow_button(ReaderState.series_slug),
        on_like=EndCardState.set_like,
        on_end_seen=EndCardState.reached_end,
        on_progress=ReaderState.save_progress,
        on_settings_change=ReaderState.change_settings,
        on_near_end=ReaderState.prefetch_next,
    )


@page(
    PageKind.READER,
    # Signed in, the account's newest positions (other devices) join the
    # history before the chapter decides where to resume.
    on_load=[LibraryState.pull, ReaderState.load, EndCardState.load],
    # The server draws the reader with the visitor's layout and the page they left.
    server_cookies=(rules.SETTINGS_COOKIE, rules.FIRST_PAGE_COOKIE),
)
def view() -> rx.Component:
    return reader_layout(
        rx.match(
            ReaderState.status,
            ("ready", _reader()),
            ("error", error_panel(ReaderState.retry, ReaderState.series_url)),
            loading_panel(),
        ),
        finished_banner(),
        # The chapter, not the site's name: the bar is narrow on a phone.
        title=HeadState.heading,
    )
