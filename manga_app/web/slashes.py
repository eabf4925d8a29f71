"""Paths with repeated slashes (`//evil.example/manga/x`, `/manga//slug`).

The browser's router reads a path starting with `//` as a URL of another
host, so it never agrees with the page the server drew for it: the first
HTML and the app's own render ended up stacked in one document. A 404 drawn
once would still leave the router to disagree after hydration, and the
visitor who typed or was sent `/manga//slug` wants the title page: such a
path is redirected, permanently (308 keeps the method), to itself with its
slashes collapsed, before any page or Reflex sees it."""

from __future__ import annotations

import re
from urllib.parse import quote

from starlette.responses import RedirectResponse
from starlette.types import Receive, Scope, Send

_REPEATED_SLASHES = re.compile(r"/{2,}")
# RFC 3986 path characters: everything else (a backslash, which browsers read
# as a slash, spaces, non-ASCII) is percent-encoded in the Location.
_PATH_SAFE = "/:@!$&'()*+,;=-._~"


def collapsed_location(path: str, query: str) -> str | None:
    """Where a request for `path` (decoded, as in the ASGI scope) belongs,
    or None when it has no repeated slash. Always a path on this origin:
    it starts with one slash, so it is never read as `//host` or a scheme."""
    if "//" not in path:
        return None
    location = quote(_REPEATED_SLASHES.sub("/", path), safe=_PATH_SAFE)
    return location + ("?" + query if query else "")


async def redirect_collapsed(scope: Scope, receive: Receive, send: Send) -> bool:
    """Answer a request with repeated slashes with its redirect; False when
    the path has none and the request is still to be answered."""
    location = collapsed_location(scope["path"], scope.get("query_string", b"").decode("latin-1"))
    if location is None:
        return False
    await RedirectResponse(location, status_code=308)(scope, receive, send)
    return True
