"""Search-engine data of a page: the model and the robots rule. The page's
head components render them (heads/tags.py), on the server and in the
browser alike. Pure: no framework imports."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

INDEX_FOLLOW = "index, follow"
NOINDEX_NOFOLLOW = "noindex, nofollow"
DEFAULT_IMAGE = "/icons/og-default.png"
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
    # An Atom feed of the page (path) for feed readers' autodiscovery, and its title.
    feed: str = ""
    feed_title: str = ""


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
