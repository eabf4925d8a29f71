"""The site's own HTTP layer, for the loader benchmark: what a backend loads
its catalogue from in production (manga_app.web.middleware.SiteHttpLayer,
with its gzip layer and the published-file routes of catalogue_files).

Reflex itself is not started: the list and genre routes never reach it, so
whatever would go on to Reflex answers 404 here. Served by granian in a
subprocess with DATA_DIR pointing at a folder whose `published/` is the
publisher's output."""

from __future__ import annotations

from starlette.responses import PlainTextResponse
from starlette.types import Receive, Scope, Send

from manga_app.web.middleware import SiteHttpLayer


async def _no_reflex(scope: Scope, receive: Receive, send: Send) -> None:
    await PlainTextResponse("not part of the loader benchmark", status_code=404)(scope, receive, send)


app = SiteHttpLayer(_no_reflex)
