"""The Content-Security-Policy of the site's pages.

Scripts run only from the site itself, plus the inline scripts each page
really carries (React Router's start-up, the reader's first paint), allowed
by their SHA-256 hashes: the hashes are taken from the page's HTML as it is
sent, so a script that is not in the page cannot run. Styles may be inline
(antd and Emotion write <style> at run time). Firebase sign-in and, on the
production host, Google Analytics add their own origins."""

from __future__ import annotations

import base64
import hashlib
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from urllib.parse import urlsplit

# What every response that is not a page carries (JSON, media, built files).
DEFAULT = "default-src 'none'; frame-ancestors 'none'"
# Script types a browser executes; JSON data blocks (the page state, JSON-LD) are not scripts.
_EXECUTED = {"", "module", "text/javascript", "application/javascript"}
_GOOGLE_ANALYTICS = ("https://www.googletagmanager.com", "https://*.google-analytics.com", "https://*.analytics.google.com")
_FIREBASE_APIS = ("https://identitytoolkit.googleapis.com", "https://securetoken.googleapis.com", "https://www.googleapis.com")
_GOOGLE_AVATARS = "https://*.googleusercontent.com"


class _StartTag(HTMLParser):
    """The attributes of one start tag (a page's <script> tags, one at a time)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=False)
        self.attributes: dict[str, str | None] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.attributes = dict(attrs)


# A script element's start tag, and where its text ends as a browser's tokenizer
# sees it: at the first `</script` followed by a space, `/` or `>`. Only the
# script tags are parsed (a whole page through HTMLParser took 2.5 ms a render).
_SCRIPT_START = re.compile(r"<script(?=[\s/>])[^>]*>", re.IGNORECASE)
_SCRIPT_END = re.compile(r"</script[\s/>]", re.IGNORECASE)


def _inline_scripts(html: str) -> Iterator[str]:
    """The text of every inline script a browser would run, in order."""
    position = 0
    while start := _SCRIPT_START.search(html, position):
        end = _SCRIPT_END.search(html, start.end())
        if end is None:
            return  # a script the document ends in is never run
        tag = _StartTag()
        tag.feed(start.group(0))
        attributes = tag.attributes
        if "src" not in attributes and (attributes.get("type") or "").strip().lower() in _EXECUTED:
            yield html[start.end():end.start()]
        position = end.end()


def inline_script_hashes(html: str) -> tuple[str, ...]:
    """The CSP hash source of every inline script the page executes, in order, once each."""
    hashes = (
        "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"
        for text in _inline_scripts(html)
    )
    return tuple(dict.fromkeys(hashes))


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") and parts.netloc else ""


def page_policy(
    script_hashes: tuple[str, ...],
    *,
    analytics: bool,
    media_base_url: str,
    auth_domain: str,
    emulator_port: str = "",
) -> str:
    """The policy of a page whose inline scripts have `script_hashes`.
    `analytics`: the production host, which loads gtag; `emulator_port`: the
    Auth emulator's port in local runs (the browser reaches it on the page's
    own host name, see assets/js/firebase/client.jsx)."""
    # No 'unsafe-eval': nothing the backend sends is a script (visitor/client_commands.py).
    # apis.google.com: the Firebase SDK's sign-in helper (gapi) for a real project.
    scripts = ["'self'", *script_hashes, "https://apis.google.com"]
    connect = ["'self'", *_FIREBASE_APIS]
    images = ["'self'", "data:", "blob:", _GOOGLE_AVATARS]
    frames = [f"https://{auth_domain}"] if auth_domain else []
    if emulator_port:
        emulator = f"http://*:{emulator_port}"
        connect.append(emulator)
        frames.append(emulator)
    if media := _origin(media_base_url):
        images.append(media)
        connect.append(media)
    if analytics:
        scripts.append(_GOOGLE_ANALYTICS[0])
        connect.extend(_GOOGLE_ANALYTICS)
        images.extend(_GOOGLE_ANALYTICS)
    directives = {
        "default-src": ["'self'"],
        "script-src": scripts,
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": images,
        "font-src": ["'self'", "data:"],
        "connect-src": connect,
        "frame-src": frames or ["'none'"],
        "worker-src": ["'self'"],
        "manifest-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
    return "; ".join(f"{name} {' '.join(dict.fromkeys(values))}" for name, values in directives.items())
