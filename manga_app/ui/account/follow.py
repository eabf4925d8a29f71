"""フォロー / フォロー中: the title page, /library and /history drop
`follow_button(slug)` in. Works for every visitor: the account when signed
in, else the browser. Until the auth state is known it waits (a click then
would not know where the follow belongs)."""

import reflex as rx

from manga_app.visitor.library_state import LibraryState


def follow_button(slug: str | rx.Var) -> rx.Component:
    following = LibraryState.followed.contains(slug)
    return rx.el.button(
        rx.cond(following, "フォロー中", "フォロー"),
        type="button",
        # The state the visitor asks for, not a toggle: sent again, it changes nothing.
        on_click=LibraryState.set_follow(slug, ~following),
        class_name=rx.cond(following, "follow-button follow-button-on", "follow-button"),
        aria_pressed=rx.cond(following, "true", "false"),
        data_testid="follow-button",
    )
