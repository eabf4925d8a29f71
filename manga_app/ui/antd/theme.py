"""The site's antd theme around one antd component (assets/js/antd_provider.jsx):
a ConfigProvider only where antd draws, not around the whole app."""

import reflex as rx

from manga_app.ui.antd.base import ANTD_PACKAGE


class AntdTheme(rx.Component):
    library = rx.asset("js/antd_provider.jsx").importable_path
    tag = "AntdTheme"
    lib_dependencies: list[str] = [ANTD_PACKAGE]


def themed(component: rx.Component) -> rx.Component:
    return AntdTheme.create(component)
