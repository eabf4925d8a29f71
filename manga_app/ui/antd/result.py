"""antd Result: the not-found and error screens."""

from typing import Literal

import reflex as rx

from manga_app.ui.antd.base import AntdComponent


class Result(AntdComponent):
    tag = "Result"

    status: rx.Var[Literal["success", "error", "info", "warning", "404", "403", "500"]]
    title: rx.Var[str]
    sub_title: rx.Var[str]
    extra: rx.Var[rx.Component]


result = Result.create
