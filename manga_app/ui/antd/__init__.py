"""Thin, pinned wrappers of antd components (one npm spec for the whole app)."""

from manga_app.ui.antd.base import ANTD_PACKAGE
from manga_app.ui.antd.button import button
from manga_app.ui.antd.provider import antd_provider

__all__ = ["ANTD_PACKAGE", "antd_provider", "button"]
