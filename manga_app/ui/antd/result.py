"""antd Result: the not-found and error screens."""

from typing import Literal

import reflex as rx

from manga_app.ui.antd.base import AntdComponent
from manga_app.ui.antd.theme import themed


class Result(AntdComponent):
    tag = "Result"

    status: rx.Var[Literal["success", "error", "info", "warning", "404", "403", "500"]]
    title: rx.Var[str]
    sub_title: rx.Var[str]
    extra: rx.Var[rx.Component]


def result(*children, **props) -> rx.Component:
    """Result in the site's theme."""
    return themed(Result.create(*children, **props))
