"""The antd package spec, pinned once: two specs would make bun install two."""

import reflex as rx

ANTD_PACKAGE = "antd@6.6.8"


class AntdComponent(rx.Component):
    """Base of every antd wrapper."""

    library = ANTD_PACKAGE
