"""Reading-list parts: the status picker (title page and /library cards)
and the notice with 元に戻す after a 完結 series was moved to 読了."""

import reflex as rx

from manga_app.accounts import lists
from manga_app.visitor.library_state import LibraryState
from manga_app.visitor.lists_state import ListsState


def status_picker(slug: str | rx.Var, *, label: str | rx.Var) -> rx.Component:
    """A select of the four statuses (one not in the library shows 「ライブラリに追加」)."""
    current = LibraryState.statuses.get(slug, "")
    return rx.el.select(
        rx.el.option("ライブラリに追加", value="", disabled=True, hidden=True),
        *(rx.el.option(lists.LABELS[status], value=status) for status in lists.STATUSES),
        value=current,
        on_change=lambda value: ListsState.set_status(slug, value),
        aria_label=label,
        class_name=rx.cond(current != "", "status-picker is-set", "status-picker"),
        data_testid="status-picker",
    )


def finished_banner() -> rx.Component:
    """「…」を読了にしました with 元に戻す, after the last chapter of a 完結 series."""
    return rx.cond(
        ListsState.finished_slug != "",
        rx.el.div(
            rx.el.p("「", ListsState.finished_title, "」は完結済みのため、読了にしました", class_name="finished-text"),
            rx.el.button("元に戻す", type="button", on_click=ListsState.undo_finished, class_name="finished-undo",
                         data_testid="finished-undo"),
            rx.el.button("×", type="button", on_click=ListsState.dismiss_finished, class_name="finished-close",
                         aria_label="閉じる"),
            role="status",
            class_name="finished-banner",
            data_testid="finished-banner",
        ),
    )
