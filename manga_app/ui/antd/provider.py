"""The notifications of every page (antd's, in the site's theme) from assets/js."""

import reflex as rx

from manga_app.ui.antd.base import ANTD_PACKAGE


class AntdProvider(rx.Component):
    """An app wrap: the notices of every page (assets/js/notices.jsx; antd loads with the first)."""

    library = rx.asset("js/notices.jsx").importable_path
    tag = "AntdProvider"
    lib_dependencies: list[str] = [ANTD_PACKAGE]

    notification_max_count: rx.Var[int]


antd_provider = AntdProvider.create
