"""A page's HTML with its meta and link tags written in one attribute order."""

from __future__ import annotations

import html
from html.parser import HTMLParser

_ATTRIBUTE_ORDER = ("name", "property", "rel", "content", "href")


class _HeadTags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ("meta", "link"):
            return
        ordered = sorted(attrs, key=lambda item: (_ATTRIBUTE_ORDER.index(item[0]) if item[0] in _ATTRIBUTE_ORDER else 99))
        self.tags.append(f"<{tag} " + " ".join(f'{key}="{html.escape(value or "")}"' for key, value in ordered) + ">")


def with_head_tags(page_html: str) -> str:
    """The page's HTML followed by its meta and link tags written with their
    attributes in one order (name/property/rel first), so a test can look for
    `<meta name="robots" content="...">` whatever order the renderer used."""
    parser = _HeadTags()
    parser.feed(page_html)
    return page_html + "\n" + "\n".join(parser.tags)
