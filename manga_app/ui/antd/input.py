"""antd Input.Search: the header search box."""

from typing import Literal

import reflex as rx

from manga_app.ui.antd.base import AntdComponent


class SearchInput(AntdComponent):
    # Reflex imports the left-most name (`Input`) of a dotted tag.
    tag = "Input.Search"

    placeholder: rx.Var[str]
    default_value: rx.Var[str]
    allow_clear: rx.Var[bool]
    enter_button: rx.Var[bool | str | rx.Component]
    size: rx.Var[Literal["small", "middle", "large"]]
    name: rx.Var[str]
    max_length: rx.Var[int]

    on_search: rx.EventHandler[lambda value: [value]]


search_input = SearchInput.create
