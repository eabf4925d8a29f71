"""Every antd component the site draws has its styles in the build-time
stylesheet: with zeroRuntime antd no longer injects them in the browser, so
a component missing from tools/extract_antd_css.cjs would show unstyled."""

from __future__ import annotations

import json
import re
from pathlib import Path

import manga_app.ui.antd  # noqa: F401  (defines the wrappers)
from manga_app.ui.antd.base import AntdComponent

EXTRACTION = Path(__file__).resolve().parents[3] / "tools" / "extract_antd_css.cjs"


def _wrapped_components() -> set[str]:
    found, classes = set(), [AntdComponent]
    while classes:
        cls = classes.pop()
        classes.extend(cls.__subclasses__())
        if cls is not AntdComponent and cls.library == AntdComponent.library:
            found.add(cls.tag.split(".")[0])
    return found


def _extracted_components() -> set[str]:
    listed = re.search(r"const COMPONENTS = (\[[^\]]*\])", EXTRACTION.read_text(encoding="utf-8"))
    assert listed, "tools/extract_antd_css.cjs no longer lists its components"
    return set(json.loads(listed.group(1).replace("\n", " ").rstrip(", ]") + "]"))


def test_every_antd_component_the_site_draws_is_in_the_build_time_stylesheet():
    wrapped = _wrapped_components()
    assert wrapped, "no antd wrappers found"
    assert wrapped <= _extracted_components(), f"missing from the extraction: {sorted(wrapped - _extracted_components())}"
