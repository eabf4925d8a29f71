"""The browser tab's title on a console page, once the console shows: the
server rendered the not-found head (as for every reader), which stays
noindex; only the title follows the page the operator is on."""

from __future__ import annotations

import reflex as rx

from manga_app.heads.state import HeadState


async def show_title(state: rx.State, title: str) -> None:
    head = await state.get_state(HeadState)
    head.title = head.heading = f"{title} · Console"
