"""Offline reading in the browser (assets/js/offline/): the app-wide root
(worker, notice, upload of reading done offline), the title page's save
controls and the /offline page's list."""

import reflex as rx
from reflex_components_core.core.banner import has_too_many_connection_errors

from manga_app.accounts.auth_state import AuthState
from manga_app.offline.progress_state import OfflineProgressState

_ROOT = rx.asset("js/offline/root.jsx").importable_path


class OfflineRoot(rx.Component):
    library = _ROOT
    tag = "OfflineRoot"

    synced_through: rx.Var[int]
    # The app failed to reach the server more than once (while the browser is online).
    connection_lost: rx.Var[bool]
    # Who is signed in is known: uploads wait for it, so they reach the account.
    auth_known: rx.Var[bool]
    on_upload: rx.EventHandler[lambda reports: [reports]]


_SAVE = rx.asset("js/offline/save_button.jsx").importable_path


class SeriesOfflineSave(rx.Component):
    library = _SAVE
    tag = "SeriesOfflineSave"

    chapters: rx.Var[list]
    read: rx.Var[list[str]]
    slug: rx.Var[str]


class ChapterOfflineSave(rx.Component):
    """A row of the title page's lists: save this chapter or volume, or remove it."""

    library = _SAVE
    tag = "ChapterOfflineSave"

    url: rx.Var[str]
    label: rx.Var[str]


class OfflineShelf(rx.Component):
    library = rx.asset("js/offline/shelf.jsx").importable_path
    tag = "OfflineShelf"


_SHELVES = rx.asset("js/offline/shelves.jsx").importable_path


class OfflineHistory(rx.Component):
    """/history offline: the browser's own history."""

    library = _SHELVES
    tag = "OfflineHistory"


class OfflineLibrary(rx.Component):
    """/library offline: the series this browser kept chapters of."""

    library = _SHELVES
    tag = "OfflineLibrary"


series_offline_save = SeriesOfflineSave.create
chapter_offline_save = ChapterOfflineSave.create
offline_history = OfflineHistory.create
offline_library = OfflineLibrary.create
offline_shelf = OfflineShelf.create


def offline_app_wrap(_stateful: bool) -> rx.Component:
    """For rx.App(extra_app_wraps=...) in the place of Reflex's overlay, whose
    connection notices are in English: beside the page, like the Firebase root."""
    return rx.fragment(
        OfflineRoot.create(
            synced_through=OfflineProgressState.synced_through,
            connection_lost=has_too_many_connection_errors,
            auth_known=~AuthState.loading,
            on_upload=OfflineProgressState.upload,
        )
    )
