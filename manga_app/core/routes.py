"""Every public URL of the site: the path patterns, the matcher and the URL
builders. Pages, HTTP routes and tests build URLs here, never with f-strings
of their own. Pure: no framework imports."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from urllib.parse import quote, unquote, urlencode

from manga_app.core.pages import PageKind, fixed_paths

# The fixed pages' paths, from their declarations (core/pages.py).
HOME = PageKind.HOME.path
GENRES = PageKind.GENRES.path
SEARCH = PageKind.SEARCH.path
LIBRARY = PageKind.LIBRARY.path
HISTORY = PageKind.HISTORY.path
ACCOUNT = PageKind.ACCOUNT.path
OFFLINE = PageKind.OFFLINE.path
RANKING = PageKind.RANKING.path
CALENDAR = PageKind.CALENDAR.path
ADMIN = PageKind.ADMIN.path
ADMIN_AUDIT = PageKind.ADMIN_AUDIT.path
ADMIN_JOBS = PageKind.ADMIN_JOBS.path
ADMIN_UPLOAD = PageKind.ADMIN_UPLOAD.path
NOTIFICATIONS = PageKind.NOTIFICATIONS.path
KANA_INDEX = "/index"
# The search boxes' suggestions (JSON, web/suggest.py).
SUGGEST = "/suggest.json"

# Reflex route templates, one per declared page.
ROUTE_TEMPLATES: dict[PageKind, str] = {kind: kind.page.route for kind in PageKind}

_SLUG = r"[a-z0-9]+(?:-[a-z0-9]+)*"
# A series slug never contains "-ch-<digit>" (catalogue.naming.slugify turns
# it into "-ch<digit>"), so the reader path splits at its one chapter marker
# without backtracking: matching stays linear in the path length.
_SERIES_SLUG = r"[a-z0-9]+(?:-(?!ch-\d)[a-z0-9]+)*"
_NUMBER = r"\d+(?:\.\d+)?"
# Longer than any path the site builds (slugs are at most 80 characters):
# refused before any pattern runs, so a hostile path costs nothing.
MAX_PATH_LENGTH = 512
# The spec's layout rule (docs/spec.md section 2): a path containing "-ch-"
# and digits, optionally followed by "-" and a slug, is read in the reader
# layout, i.e. it matches PageKind.READER.
_READER_PATH = re.compile(
    rf"^/(?P<slug>{_SERIES_SLUG})-ch-(?P<number>{_NUMBER})(?:-(?P<chapter_slug>{_SLUG}))?/?$"
)


def reader_path_pattern() -> str:
    """The reader's path rule as a JavaScript RegExp source, for the parts of
    the page that the browser decides by it (assets/js/site_styles.jsx,
    assets/js/scroll_restoration.jsx): one rule, written here."""
    within_length = rf"(?=[\s\S]{{0,{MAX_PATH_LENGTH}}}$)"
    return "^" + within_length + _READER_PATH.pattern.removeprefix("^").replace("(?P<", "(?<")


# Volumes and chapters are both read at `/{slug}-ch-{n}...`, and both are
# known everywhere else (manifests, reading history, view counts) by one
# number per series: a chapter by its own number, a volume by VOLUME_KEY
# plus its number. So volume 3 (key 1000003) never meets chapter 3. Its URL
# keeps the spec's pattern with the chapter slug `vol` (`/{slug}-ch-3-vol`),
# which the importer never gives a chapter (catalogue.upsert.unit_slug).
VOLUME_KEY = Decimal(1_000_000)
VOLUME_SLUG = "vol"
_STATIC_PATHS = fixed_paths()
# What a route template's parameter may hold, where it is narrower than one
# path segment.
_PARAMETERS = {"slug": _SLUG}
_PARAMETER = re.compile(r"\[(\w+)\]")


def _template_pattern(route: str) -> re.Pattern[str]:
    """`/manga/[slug]` -> a regex naming each parameter, one segment each."""
    parts = _PARAMETER.split(route)
    pattern = "".join(
        rf"(?P<{part}>{_PARAMETERS.get(part, '[^/]+')})" if index % 2 else re.escape(part) for index, part in enumerate(parts)
    )
    return re.compile(rf"^{pattern}/?$")


# The declared pages with parameters, matched by their templates; the reader
# is matched by its own rule (parse_reader_path), after all of them.
_TEMPLATE_PATHS = tuple(
    (kind, _template_pattern(kind.page.route)) for kind in PageKind if not kind.page.fixed and kind is not PageKind.READER
)


@dataclass(frozen=True)
class RouteMatch:
    """A path resolved to the page that renders it and that page's arguments."""

    kind: PageKind
    params: dict[str, str] = field(default_factory=dict)


def match(path: str) -> RouteMatch | None:
    """Resolve a request path (query ignored) to a page, or None for a 404.

    This only checks the shape of the path; whether the named title or chapter
    exists is the page's own question.
    """
    path = _strip_query(path) or "/"
    if len(path) > MAX_PATH_LENGTH:
        return None
    if path != "/" and path.endswith("/"):
        path = path[:-1]
    if path in _STATIC_PATHS:
        return RouteMatch(_STATIC_PATHS[path])
    for kind, pattern in _TEMPLATE_PATHS:
        if found := pattern.match(path):
            params = {name: unquote(value).strip() for name, value in found.groupdict().items()}
            return RouteMatch(kind, params) if all(params.values()) else None
    if reader := parse_reader_path(path):
        return RouteMatch(PageKind.READER, reader)
    return None


def parse_reader_path(path: str) -> dict[str, str] | None:
    """Split `/{slug}-ch-{n}[-{chapter-slug}]` into its parts, or None.

    `number` is the unit's key: `/{slug}-ch-3-vol` is volume 3, whose key is
    VOLUME_KEY + 3 (see VOLUME_KEY); a key written as a chapter number is no path.
    """
    path = _strip_query(path)
    found = _READER_PATH.match(path) if len(path) <= MAX_PATH_LENGTH else None
    if not found or Decimal(found["number"]) >= VOLUME_KEY:
        return None
    chapter_slug = found["chapter_slug"] or ""
    number = Decimal(found["number"]) + (VOLUME_KEY if chapter_slug == VOLUME_SLUG else 0)
    return {"slug": found["slug"], "number": format_chapter_number(number), "chapter_slug": chapter_slug}


def is_volume(number: str | int | float | Decimal) -> bool:
    """Whether a unit key names a volume (see VOLUME_KEY)."""
    return Decimal(str(number)) >= VOLUME_KEY


def unit_number(number: str | int | float | Decimal) -> str:
    """The number a visitor reads for a unit key: volume key 1000003 -> `3`."""
    value = Decimal(str(number))
    return format_chapter_number(value - VOLUME_KEY if value >= VOLUME_KEY else value)


def unit_label(number: str | int | float | Decimal, title: str = "") -> str:
    """`第3巻` for a volume key, `第12話` for a chapter, followed by its title if any."""
    label = f"第{unit_number(number)}{'巻' if is_volume(number) else '話'}"
    return f"{label} {title}" if title else label


def unit_json(number: str | int | float | Decimal) -> dict:
    """What published files say of a unit key: `{"kind": "volume", "number": 3,
    "label": "第3巻"}` for volume key 1000003 (never the key itself)."""
    shown = Decimal(unit_number(number))
    return {
        "kind": "volume" if is_volume(number) else "chapter",
        "number": int(shown) if shown == shown.to_integral_value() else float(shown),
        "label": unit_label(number),
    }


def unit_key(kind: str, number: str | int | float | Decimal) -> Decimal:
    """The unit key of a published unit (`kind` "chapter" or "volume"); the
    inverse of unit_json. ValueError for any other kind or a key-sized number."""
    value = Decimal(str(number))
    if kind not in ("chapter", "volume") or not value.is_finite() or not 0 <= value < VOLUME_KEY:
        raise ValueError(f"not a published unit: {kind!r} {number!r}")
    return value + VOLUME_KEY if kind == "volume" else value


def unit_segment(number: str | int | float | Decimal) -> str:
    """A unit key as public paths other than the reader's write it (OPDS):
    `12`, `10.5`, and for a volume `3-vol`, the reader's own suffix."""
    shown = unit_number(number)
    return f"{shown}-{VOLUME_SLUG}" if is_volume(number) else shown


def manifest_path(slug: str, number: str | int | float | Decimal) -> str:
    """Where a unit's encrypted page list is published, named as public paths
    name the unit (unit_segment): `/manifests/{slug}/12.json`, `.../3-vol.json`."""
    return f"/manifests/{slug}/{unit_segment(number)}.json"


def parse_unit_segment(segment: str) -> str | None:
    """The unit key written by unit_segment, formatted, or None for anything else."""
    found = re.fullmatch(rf"(?P<number>{_NUMBER})(?P<volume>-{VOLUME_SLUG})?", segment)
    if not found or Decimal(found["number"]) >= VOLUME_KEY:
        return None
    return format_chapter_number(Decimal(found["number"]) + (VOLUME_KEY if found["volume"] else 0))


def format_chapter_number(number: str | int | float | Decimal) -> str:
    """Chapter numbers as they appear in URLs: `12`, `10.5` (never `12.0`)."""
    try:
        value = Decimal(str(number))
    except InvalidOperation as error:
        raise ValueError(f"not a chapter number: {number!r}") from error
    if not value.is_finite() or value < 0:
        raise ValueError(f"not a chapter number: {number!r}")
    if value.is_zero():
        return "0"  # never "-0"
    return format(value.normalize(), "f")


def manga_url(slug: str) -> str:
    return f"/manga/{slug}"


def admin_series_url(slug: str) -> str:
    """The console's editor of one series."""
    return f"/admin/series/{slug}"


def chapter_url(slug: str, number: str | int | float | Decimal, chapter_slug: str = "") -> str:
    """The reader's URL of a unit key: `/{slug}-ch-{n}[-{chapter-slug}]`, a volume `/{slug}-ch-{n}-vol`."""
    if is_volume(number):
        return f"/{slug}-ch-{unit_number(number)}-{VOLUME_SLUG}"
    base = f"/{slug}-ch-{format_chapter_number(number)}"
    return f"{base}-{chapter_slug}" if chapter_slug else base


def series_feed_url(slug: str) -> str:
    """The Atom feed of a series' newest units (web/feeds.py)."""
    return f"/feeds/series/{slug}.atom"


def personal_feed_url(key: str) -> str:
    """The Atom feed of a reader's library, under their secret feed key."""
    return f"/feeds/k/{key}.atom"


def genre_url(name: str) -> str:
    return f"/genre/{quote(name, safe='')}"


def author_url(name: str) -> str:
    """An author's (writer's or artist's) page."""
    return f"/author/{quote(name, safe='')}"


def tag_url(name: str) -> str:
    return f"/tag/{quote(name, safe='')}"

def kana_row_url(row: str, page: int = 1) -> str:
    """`/index/{row}` (a row of core.gojuon.SITE_ROWS), `?page=` past the first."""
    return f"{KANA_INDEX}/{quote(row, safe='')}" + (f"?page={page}" if page > 1 else "")


def search_url(**params: str | int | list[str] | None) -> str:
    """`/search?...` keeping only the filters that are set, in a stable order."""
    pairs: list[tuple[str, str]] = []
    for key in ("q", "genre", "exclude", "status", "sort", "page"):
        value = params.get(key)
        if value in (None, "", []):
            continue
        values = value if isinstance(value, list) else [value]
        pairs.extend((key, str(item)) for item in values)
    return f"{SEARCH}?{urlencode(pairs)}" if pairs else SEARCH


def ranking_url(period: str = "", genre: str = "", page: int = 1) -> str:
    """`/ranking?period=&genre=&page=`; the defaults (empty, page 1) left out."""
    pairs = [(key, str(value)) for key, value in (("period", period), ("genre", genre), ("page", page if page > 1 else "")) if value]
    return f"{RANKING}?{urlencode(pairs)}" if pairs else RANKING


def calendar_url(day: str = "", page: int = 1) -> str:
    """`/calendar?day=&page=`; the defaults (today, page 1) left out."""
    pairs = [(key, str(value)) for key, value in (("day", day), ("page", page if page > 1 else "")) if value]
    return f"{CALENDAR}?{urlencode(pairs)}" if pairs else CALENDAR


def _strip_query(path: str) -> str:
    return path.split("?", 1)[0].split("#", 1)[0]
