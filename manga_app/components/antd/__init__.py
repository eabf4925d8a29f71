"""Thin, pinned wrappers of antd components (one npm spec for the whole app)."""

from manga_app.components.antd.base import ANTD_PACKAGE
from manga_app.components.antd.button import button
from manga_app.components.antd.input import search_input
from manga_app.components.antd.provider import antd_provider
from manga_app.components.antd.result import result

__all__ = ["ANTD_PACKAGE", "antd_provider", "button", "result", "search_input"]
