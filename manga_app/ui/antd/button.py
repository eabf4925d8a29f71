"""antd Button."""

from typing import Literal

import reflex as rx

from manga_app.ui.antd.base import AntdComponent
from manga_app.ui.antd.theme import themed


class Button(AntdComponent):
    tag = "Button"

    type: rx.Var[Literal["primary", "default", "dashed", "text", "link"]]
    html_type: rx.Var[Literal["button", "submit", "reset"]]
    href: rx.Var[str]
    size: rx.Var[Literal["small", "middle", "large"]]
    shape: rx.Var[Literal["default", "circle", "round"]]
    block: rx.Var[bool]
    danger: rx.Var[bool]
    disabled: rx.Var[bool]
    loading: rx.Var[bool]
    icon: rx.Var[rx.Component]


def button(*children, **props) -> rx.Component:
    """Button in the site's theme."""
    return themed(Button.create(*children, **props))
