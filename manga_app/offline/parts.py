"""Offline reading in the browser (assets/js/offline/): the app-wide root
(worker, notice, upload of reading done offline), the title page's save
controls and the /offline page's list."""

import reflex as rx
from reflex_components_core.core.banner import has_too_many_connection_errors

from manga_app.visitor.auth_state import AuthState
from manga_app.visitor.library_state import LibraryState
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


class _OfflineShelf(rx.Component):
    library = _SHELVES

    # The shelf as the server draws it, remembered while online for the
    # account whose library the browser holds (`owner`, its uid; "" for
    # none) once `known` (who it is, and the shelf, loaded).
    items: rx.Var[list]
    owner: rx.Var[str]
    known: rx.Var[bool]


class OfflineHistory(_OfflineShelf):
    """/history offline: the account's history as last seen online, else the browser's own."""

    tag = "OfflineHistory"


class OfflineLibrary(_OfflineShelf):
    """/library offline: the account's follows as last seen online, else the series this browser kept chapters of."""

    tag = "OfflineLibrary"


def offline_history() -> rx.Component:
    return OfflineHistory.create(items=LibraryState.history_items, owner=LibraryState.owner, known=_known())


def offline_library() -> rx.Component:
    return OfflineLibrary.create(items=LibraryState.library_items, owner=LibraryState.owner, known=_known())


def _known() -> rx.Var[bool]:
    return LibraryState.loaded & ~AuthState.loading


series_offline_save = SeriesOfflineSave.create
chapter_offline_save = ChapterOfflineSave.create
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
