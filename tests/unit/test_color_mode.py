"""The compiled document has no color-mode script (components/color_mode.py)."""

from __future__ import annotations

import reflex.utils.misc
from reflex.compiler.utils import create_document_root

from manga_app.components.color_mode import leave_out_color_mode_script


def _document_code() -> str:
    root = create_document_root(head_components=[], html_lang="ja", default_color_mode="light")
    return str(root.render())


def test_the_document_head_reads_no_saved_color_mode(monkeypatch):
    monkeypatch.setattr(reflex.utils.misc, "preload_color_theme", reflex.utils.misc.preload_color_theme)
    # Reflex's own document does (what this change takes away).
    assert "localStorage" in _document_code()
    leave_out_color_mode_script()
    code = _document_code()
    assert "localStorage" not in code and "prefers-color-scheme" not in code
    # The rest of the document is still there.
    assert "utf-8" in code and "stylesheet" in code
