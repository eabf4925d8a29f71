"""The reader's first page as HTML, for a browser that has not read here.

Site pages are rendered by the app's own components (manga_app/ssr); the
reader is not yet, so the server still writes its first page with the
markup of templates/reader_first_paint.html."""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
from markupsafe import Markup

from manga_app.seo import inline_script, inline_style, self_removing_script

TEMPLATES = Path(__file__).resolve().parent / "templates"
# Line breaks and indentation between tags, template tags included.
_BETWEEN_TAGS = re.compile(r"(>|%\}|#\}|\}\})[ \t]*\n\s*(?=<|\{%|\{#|\{\{)")


def _template_source(name: str) -> tuple[str, str, None] | None:
    file = TEMPLATES / name
    if not file.is_file():
        return None
    # React renders no whitespace between elements: neither does the copy.
    return _BETWEEN_TAGS.sub(r"\1", file.read_text(encoding="utf-8")), str(file), None


_ENVIRONMENT = jinja2.Environment(
    loader=jinja2.FunctionLoader(_template_source),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
    undefined=jinja2.StrictUndefined,
)


def reader_html(data: dict) -> str:
    """A chapter's first page as HTML, first in the body, for a browser that
    has not read here (reader_rules.first_paint_in_html): as the reader will
    open it, styled by the reader's page rules alone (the site's stylesheet
    loads after this frame), with the paint gate the app's start waits for.
    Nothing of it runs before the frame but the parser: the head's script
    (seo.first_paint_html) cost a fresh page's main thread several
    milliseconds on the way to its first frame."""
    script = self_removing_script(
        f"{inline_script('paint_gate.js')}\n{inline_script('reader/first_paint_watch.js')}\n"
        "window.__firstPaint = paintGate(watchReaderFirstPaint(self.parentNode))"
    )
    return _ENVIRONMENT.get_template("reader_first_paint.html").render(
        page=data,
        mode="vertical" if data["webtoon"] else "paged",
        direction=data["direction"],
        share=data["width"] / data["height"],
        css=Markup(inline_style("reader_pages.css")),
        script=Markup(script),
    )
