"""The reader's parts: the browser-side reading component and its panels."""

from manga_app.components.reader.panels import error_panel, loading_panel
from manga_app.components.reader.viewer import manga_reader

__all__ = ["error_panel", "loading_panel", "manga_reader"]
