"""The published-catalogue routes of the site, alone, for the loader benchmark.

`app` answers like the site (manga_app.web.middleware: GZip over the JSON
routes); `plain` is the same without compression. Served by granian in a
subprocess with DATA_DIR pointing at a folder whose `published/` is the output.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Route

from manga_app.web import catalogue_files

plain = Starlette(
    routes=[
        Route("/genres.json", catalogue_files.genres_json, methods=["GET", "HEAD"]),
        Route("/mangas_{page}.json", catalogue_files.mangas_json, methods=["GET", "HEAD"]),
    ]
)
app = GZipMiddleware(plain, minimum_size=1024)
