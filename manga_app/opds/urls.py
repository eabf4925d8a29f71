"""Every OPDS URL, built under a root: `/opds`, or `/opds/k/{key}` for a
reader who pasted their personal URL (every link then keeps the key, so the
personal feeds stay reachable from anywhere in the catalogue). Pure module."""

from __future__ import annotations

from urllib.parse import quote, urlencode

ROOT = "/opds"
KEYED_PREFIX = "/opds/k/"
ATOM = "application/atom+xml"
NAVIGATION = "application/atom+xml;profile=opds-catalog;kind=navigation"
ACQUISITION = "application/atom+xml;profile=opds-catalog;kind=acquisition"
OPENSEARCH = "application/opensearchdescription+xml"
CBZ = "application/vnd.comicbook+zip"
PSE_STREAM = "http://vaemendis.net/opds-pse/stream"
PSE_NAMESPACE = "http://vaemendis.net/opds-pse/ns"
# The PSE spec's placeholders, left unescaped in the link.
PAGE_TEMPLATE = "{pageNumber}"
WIDTH_TEMPLATE = "{maxWidth}"
SEARCH_TEMPLATE = "{searchTerms}"


def keyed_root(key: str) -> str:
    return f"{KEYED_PREFIX}{quote(key, safe='')}"


def _with_page(path: str, page: int, **params: str) -> str:
    query = {name: value for name, value in params.items() if value}
    if page > 1:
        query["page"] = str(page)
    return f"{path}?{urlencode(query)}" if query else path


class Urls:
    """URL builders under one root (see the module docstring)."""

    def __init__(self, root: str = ROOT) -> None:
        self.root = root.rstrip("/")

    def start(self) -> str:
        return self.root

    def new(self, page: int = 1) -> str:
        return _with_page(f"{self.root}/new", page)

    def popular(self, page: int = 1) -> str:
        return _with_page(f"{self.root}/popular", page)

    def latest(self, page: int = 1) -> str:
        return _with_page(f"{self.root}/latest", page)

    def genres(self) -> str:
        return f"{self.root}/genres"

    def genre(self, name: str, page: int = 1) -> str:
        return _with_page(f"{self.root}/genres/{quote(name, safe='')}", page)

    def authors(self, page: int = 1) -> str:
        return _with_page(f"{self.root}/authors", page)

    def author(self, name: str, page: int = 1) -> str:
        return _with_page(f"{self.root}/authors/{quote(name, safe='')}", page)

    def kana_rows(self) -> str:
        return f"{self.root}/kana"

    def kana_row(self, row: str, page: int = 1) -> str:
        return _with_page(f"{self.root}/kana/{quote(row, safe='')}", page)

    def search_description(self) -> str:
        return f"{self.root}/search.xml"

    def search(self, query: str = "", page: int = 1) -> str:
        return _with_page(f"{self.root}/search", page, q=query)

    def search_template(self) -> str:
        return f"{self.root}/search?q={SEARCH_TEMPLATE}"

    def series(self, slug: str, page: int = 1) -> str:
        return _with_page(f"{self.root}/series/{slug}", page)

    def download(self, slug: str, number: str) -> str:
        return f"{self.root}/series/{slug}/{number}.cbz"

    def pages(self, slug: str, number: str) -> str:
        """The PSE stream link, with the spec's placeholders."""
        return f"{self.root}/series/{slug}/{number}/pages/{PAGE_TEMPLATE}?maxWidth={WIDTH_TEMPLATE}"

    def page(self, slug: str, number: str, index: int, max_width: int | None = None) -> str:
        base = f"{self.root}/series/{slug}/{number}/pages/{index}"
        return f"{base}?maxWidth={max_width}" if max_width else base

    def following(self, page: int = 1) -> str:
        return _with_page(f"{self.root}/following", page)

    def continue_reading(self) -> str:
        return f"{self.root}/continue"
