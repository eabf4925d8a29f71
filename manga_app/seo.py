"""Search-engine data of a page: the model, the robots rule and its HTML.

The server writes `render_head_html` into the first HTML response; the
browser renders the same values from state after hydration. Pure: no
framework imports."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import cache
from html import escape
from pathlib import Path

from manga_app.reader_rules import first_paint_in_html

INDEX_FOLLOW = "index, follow"
NOINDEX_NOFOLLOW = "noindex, nofollow"
# Marks the tags the server wrote, so the browser can drop them before React
# renders its own. The title stays a plain <title> for crawlers; it is the
# only one in the head at that point (the shell's own was replaced).
SSR_MARKER = "data-ssr-head"
DEFAULT_IMAGE = "/icons/og-default.png"
# Plain scripts the server inlines into heads (see inline_script): the
# reader's first paint, the site pages' first paint, the paint gate; and the
# stylesheet of the reader's first paint (inline_style).
SCRIPTS = Path(__file__).resolve().parents[1] / "assets" / "js"
STYLES = Path(__file__).resolve().parents[1] / "assets" / "css"


@dataclass(frozen=True)
class PageHead:
    """What a page tells search engines and link previews about itself."""

    title: str
    description: str
    path: str
    og_type: str = "website"
    image: str = DEFAULT_IMAGE
    json_ld: tuple[dict, ...] = field(default_factory=tuple)
    # Pages such as "not found" are never indexed, whatever the host.
    indexable: bool = True
    # What the page calls itself on screen, without the site's name ("" = the title).
    heading: str = ""
    # A chapter's first page for the reader's first paint (reader_rules.first_paint), or None.
    first_paint: dict | None = field(default=None, hash=False, compare=False)


def host_name(host: str) -> str:
    """`Example.COM:443` -> `example.com`; IPv6 literals keep their brackets."""
    host = host.strip().lower()
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    return host.split(":", 1)[0]


def is_production_host(host: str, production_host: str) -> bool:
    return bool(production_host.strip()) and host_name(host) == host_name(production_host)


def robots_for(head: PageHead, *, host: str, production_host: str) -> str:
    if head.indexable and is_production_host(host, production_host):
        return INDEX_FOLLOW
    return NOINDEX_NOFOLLOW


def absolute_url(origin: str, path: str) -> str:
    if path.startswith(("http://", "https://")):
        return path
    return origin.rstrip("/") + (path if path.startswith("/") else "/" + path)


def json_ld_text(blocks: tuple[dict, ...] | list[dict]) -> str:
    """One JSON-LD document, safe inside <script> (no `</script>` breakout)."""
    if not blocks:
        return ""
    document = blocks[0] if len(blocks) == 1 else {"@context": "https://schema.org", "@graph": list(blocks)}
    text = json.dumps(document, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


# A line that is only a comment. These scripts hold no template literal
# (backquoted, multi-line string) in which such a line would be text.
_COMMENT_LINE = re.compile(r"^[ \t]*//.*\n", re.MULTILINE)


@cache
def inline_script(name: str) -> str:
    """assets/js/<name>, checked to be safe inside an inline <script>, its
    comment lines left out: they are a third of the bytes every page's head
    carries and the browser parses before its first frame."""
    file = SCRIPTS / name
    script = _COMMENT_LINE.sub("", file.read_text(encoding="utf-8"))
    if "</script" in script.lower() or "<!--" in script or "`" in script:
        raise ValueError(f"{file} cannot be inlined in a <script>")
    return script


_CSS_COMMENT = re.compile(r"/\*.*?\*/\s*", re.DOTALL)


@cache
def inline_style(name: str) -> str:
    """assets/css/<name> without its comments, checked to be safe inside an
    inline <style> (or handed to a head script as a string, script_json)."""
    file = STYLES / name
    css = _CSS_COMMENT.sub("", file.read_text(encoding="utf-8"))
    if "</" in css:
        raise ValueError(f"{file} cannot be inlined in a <style>")
    return css


def self_removing_script(code: str) -> str:
    """An inline head script that removes itself once it has run, so React
    never meets it when it hydrates the head (an inline script still there
    would break hydration, React #418)."""
    return f"<script>(function(self){{try{{{code}}}finally{{self.remove()}}}})(document.currentScript)</script>"


def script_json(value: object) -> str:
    """JSON that cannot end or comment out the <script> it sits in."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def first_paint_html(data: dict) -> str:
    """A chapter's first page for a browser whose stored settings decide it,
    painted while the head is still being parsed (assets/js/reader/
    first_paint.js defines `readerFirstPaint`) with the styles of the
    reader's pages, and the paint gate the app's start waits for
    (paint_gate.js). Inline, so nothing waits for another request. (Other
    browsers get it as HTML: web/first_paint.reader_html.)"""
    arguments = f"{script_json(data)}, {script_json(inline_style('reader_pages.css'))}"
    return self_removing_script(
        f"{inline_script('paint_gate.js')}\n{inline_script('reader/first_paint_watch.js')}\n"
        f"{inline_script('reader/first_paint.js')}\n"
        f"var images = readerFirstPaint({arguments});if (images) window.__firstPaint = paintGate(images)"
    )


def meta_tags(head: PageHead, *, origin: str, robots: str, site_name: str) -> list[tuple[str, str, str]]:
    """(attribute, key, content) for every <meta> the page carries."""
    url = absolute_url(origin, head.path)
    return [
        ("name", "description", head.description),
        ("name", "robots", robots),
        ("property", "og:title", head.title),
        ("property", "og:description", head.description),
        ("property", "og:url", url),
        ("property", "og:type", head.og_type),
        ("property", "og:image", absolute_url(origin, head.image)),
        ("property", "og:site_name", site_name),
        ("property", "og:locale", "ja_JP"),
        ("name", "twitter:card", "summary_large_image"),
    ]


def render_head_html(head: PageHead, *, origin: str, robots: str, site_name: str) -> str:
    """The page's head tags as HTML for the first response."""
    parts = []
    if head.first_paint and head.first_paint.get("preload"):
        # First, so the browser's preload scanner asks for the page before
        # the app's scripts take every connection.
        href = escape(head.first_paint["preload"])
        parts.append(f'<link rel="preload" as="image" fetchpriority="high" href="{href}">')
    parts.append(f"<title>{escape(head.title)}</title>")
    for attribute, key, content in meta_tags(head, origin=origin, robots=robots, site_name=site_name):
        parts.append(f'<meta {attribute}="{escape(key)}" content="{escape(content)}" {SSR_MARKER}="">')
    canonical = escape(absolute_url(origin, head.path))
    parts.append(f'<link rel="canonical" href="{canonical}" {SSR_MARKER}="">')
    if ld := json_ld_text(head.json_ld):
        parts.append(f'<script type="application/ld+json" {SSR_MARKER}="">{ld}</script>')
    if head.first_paint and not first_paint_in_html(head.first_paint):
        parts.append(first_paint_html(head.first_paint))
    return "".join(parts)


# Removes the server's tags while the head is parsed, before React starts:
# from then on React owns them, so the page never shows two of anything (on
# dynamic routes React renders rather than hydrates, and would add a second
# <title> beside the server's). React renders this script itself (an app head
# component, after the server's tags): an inline script the server wrote into
# the head would be a node React does not expect, and hydration would fail
# (React #418).
REMOVE_SERVER_HEAD_JS = (
    f"document.querySelectorAll('head>title,[{SSR_MARKER}]').forEach(function(e){{e.remove()}})"
)
