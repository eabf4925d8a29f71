"""`/suggest.json?q=`: the search boxes' suggestions for the text typed so
far (search/suggest.py), from the held search index: no database query per
keystroke. The browser asks after a pause in typing (assets/js/suggest.jsx)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from manga_app.search.held_index import current_index
from manga_app.search.suggest import suggestions

# Suggestions follow the held catalogue: a minute behind a publish at most.
_CACHE = "public, max-age=60"


async def suggest(request: Request) -> Response:
    """`{"q": ..., "items": [{"kind": "title"|"author", "label", "href"}, ...]}`;
    a missing, empty or unusable `q` has no suggestions (never an error)."""
    typed = request.query_params.get("q", "")
    _, index = await current_index()
    found = suggestions(index, typed)
    return JSONResponse({"q": typed[:400], "items": [item.as_json() for item in found]},
                        headers={"Cache-Control": _CACHE})
