"""The title page's chapter list: newest first, with the visitor's read
marks from their reading history: 既読 for a chapter read to its last page,
"5/8" and a thin bar for one left part-way; beside each, its オフライン保存
button (保存済み once saved)."""

from __future__ import annotations

import reflex as rx

from manga_app.offline.parts import chapter_offline_save
from manga_app.ui.cards import moment_time
from manga_app.ui.link import link
from manga_app.cards.records import ChapterRow


def _progress(row: rx.Var, left: rx.Var[dict[str, str]], width: rx.Var[dict[str, str]]) -> rx.Component:
    return rx.el.span(
        rx.el.span(left[row.number], class_name="read-progress"),
        rx.el.span(rx.el.span(class_name="read-progress-fill", style={"width": width[row.number]}), class_name="read-progress-bar"),
        class_name="read-progress-box",
        title=left[row.number] + "ページまで読みました",
    )


def _row(row: rx.Var, read: rx.Var[list[str]], left: rx.Var[dict[str, str]], width: rx.Var[dict[str, str]]) -> rx.Component:
    is_read = read.contains(row.number)
    return rx.el.li(
        link(
            rx.el.span(
                rx.el.span(row.label, class_name="chapter-number"),
                rx.el.span(row.title, class_name="chapter-title"),
                class_name="chapter-name",
            ),
            rx.el.span(
                rx.cond(is_read, rx.el.span("既読", class_name="read-mark"), rx.cond(left.contains(row.number), _progress(row, left, width))),
                moment_time(row.published, class_name="chapter-time"),
                class_name="chapter-side",
            ),
            href=row.url,
            class_name=rx.cond(is_read, "chapter-link is-read", "chapter-link"),
        ),
        chapter_offline_save(url=row.url, label=row.label),
        class_name="chapter-row",
        data_number=row.segment,
    )


def chapter_list(
    rows: rx.Var[list[ChapterRow]],
    *,
    read: rx.Var[list[str]],
    left: rx.Var[dict[str, str]],
    left_width: rx.Var[dict[str, str]],
    label: str = "話一覧（新しい順）",
) -> rx.Component:
    return rx.el.ol(rx.foreach(rows, lambda row: _row(row, read, left, left_width)), class_name="chapter-list", aria_label=label)
