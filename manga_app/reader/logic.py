"""The reader's rules as pure functions: manifest decoding, reader settings,
the day a view belongs to and the resume position.

No framework imports, so every rule is table-tested without a browser."""

from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime, timedelta, timezone
from typing import TYPE_CHECKING

from manga_app.core import routes
from manga_app.accounts import reading
from manga_app.core.crypto import decrypt_text
from manga_app.reader import images
from manga_app.reader.rules import series_default_direction

if TYPE_CHECKING:
    from manga_app.read_models.titles import ChapterView

# Pages whose side exceeds this are refused: a manifest is data from a file
# server, and absurd sizes would make the browser reserve absurd boxes.
MAX_SIDE = 30000
# Whole chapter preloaded when shorter than this (the default).
WHOLE_CHAPTER_PRELOAD_BELOW = 60
LONG_CHAPTER_PRELOAD = 6

MODES = ("vertical", "paged")
DIRECTIONS = ("rtl", "ltr")
FITS = ("auto", "width", "height", "original")
PRELOAD_CHOICES = (0, 2, 5, 10, -1)  # 0: automatic, -1: the whole chapter
# Series with their own direction remembered; the oldest choice goes first.
MAX_SERIES_DIRECTIONS = 200
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
MAX_SLUG = 100

DEFAULT_SETTINGS: dict = {
    # A visitor's mode for page-by-page series and for webtoons, kept apart so
    # choosing "paged" for manga never turns webtoons into pages.
    "manga_mode": "paged",
    "webtoon_mode": "vertical",
    # The visitor's reading direction per series slug; a series not listed
    # reads in its own direction (作品の設定).
    "directions": {},
    "double": False,
    # The one-page offset in double view: True or False as the reader chose
    # it, None (自動) for the chapter's own (worked out at import).
    "offset": None,
    "fit": "auto",
    "saver": False,
    "preload": 0,
    # One-handed reading: the left and right tap zones trade places.
    "tap_swap": False,
}
_FLAGS = ("double", "offset", "saver", "tap_swap")

# The day a view belongs to: Japanese visitors expect midnight in Japan.
JST = timezone(timedelta(hours=9))
# A device clock further off than this is not believed (history ordering).
MAX_CLOCK_SKEW = timedelta(days=1)


class ManifestError(ValueError):
    """The manifest could not be turned into a non-empty page list."""


def parse_manifest_pages(plaintext: str) -> list[dict]:
    """The decrypted JSON list as `[{url, saver_url, width, height}]`, the
    first page with the chapter's `spread_offset` when it is on.

    Empty or malformed content is a failure, never an empty chapter."""
    try:
        raw = json.loads(plaintext) if plaintext else None
    except (TypeError, ValueError) as error:
        raise ManifestError("manifest is not JSON") from error
    if not isinstance(raw, list) or not raw:
        raise ManifestError("manifest has no pages")
    pages = []
    for item in raw:
        try:
            url = str(item["url"]).strip()
            width, height = int(item["width"]), int(item["height"])
            saver = str(item.get("saver_url") or url).strip()
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise ManifestError("manifest page is malformed") from error
        if not url or not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE):
            raise ManifestError("manifest page is malformed")
        page = {"url": url, "saver_url": saver, "width": width, "height": height}
        pages.append(page | images.avif_copies(item))
    if raw[0].get("spread_offset") is True:
        pages[0]["spread_offset"] = True
    return pages


def spread_offset_of(pages: list[dict]) -> bool:
    """The chapter's double-page offset, which its manifest's first page
    carries (catalogue/publisher.py); False for a manifest published before."""
    return bool(pages) and pages[0].get("spread_offset") is True


def decrypt_manifest(payload: bytes | str, key: str) -> list[dict]:
    """The published `{"iv", "data"}` file decrypted into its page list."""
    try:
        envelope = json.loads(payload)
        iv, data = envelope["iv"], envelope["data"]
    except (TypeError, ValueError, KeyError) as error:
        raise ManifestError("manifest envelope is malformed") from error
    if not isinstance(iv, str) or not isinstance(data, str):
        raise ManifestError("manifest envelope is malformed")
    # decrypt_text never raises: a wrong key or corrupt data comes back as "".
    return parse_manifest_pages(decrypt_text(data, key, iv))


def _directions(raw: object) -> dict[str, str]:
    if not isinstance(raw, dict):
        return {}
    kept = {
        slug: value
        for slug, value in raw.items()
        if isinstance(slug, str) and len(slug) <= MAX_SLUG and _SLUG.fullmatch(slug) and value in DIRECTIONS
    }
    return dict(list(kept.items())[-MAX_SERIES_DIRECTIONS:])


def normalize_settings(raw: object) -> dict:
    """Known keys with allowed values; anything else falls back to the default
    (a visitor can edit localStorage). The old single `direction` that
    overrode every series is dropped: directions are per series now."""
    source = raw if isinstance(raw, dict) else {}
    settings = {**DEFAULT_SETTINGS, "directions": _directions(source.get("directions"))}
    for key in ("manga_mode", "webtoon_mode"):
        if source.get(key) in MODES:
            settings[key] = source[key]
    if source.get("fit") in FITS:
        settings["fit"] = source["fit"]
    for key in _FLAGS:
        if isinstance(source.get(key), bool):
            settings[key] = source[key]
    preload = source.get("preload")
    if isinstance(preload, int) and not isinstance(preload, bool) and preload in PRELOAD_CHOICES:
        settings["preload"] = preload
    return settings


def _json_object(text: str) -> dict:
    try:
        value = json.loads(text) if text else {}
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def combine_settings(cookie: str, stored: str) -> dict:
    """The reader's settings from its cookie (everything but the per-series
    directions) and its localStorage (the directions; before the cookie
    existed, every setting: those still count until the cookie is written)."""
    local = _json_object(stored)
    return normalize_settings({**local, **_json_object(cookie), "directions": local.get("directions")})


def split_settings(settings: dict) -> tuple[str, str]:
    """(cookie, localStorage) texts of the settings: see combine_settings."""
    normalized = normalize_settings(settings)
    directions = normalized.pop("directions")
    cookie = json.dumps(normalized, separators=(",", ":"), sort_keys=True)
    return cookie, json.dumps({"directions": directions}, separators=(",", ":"), sort_keys=True)


def migrated_settings_cookie(cookie: str, stored: str) -> str | None:
    """The cookie to write for a browser whose settings are all still in
    localStorage (from before the cookie), else None."""
    if cookie or not (_json_object(stored).keys() - {"directions"}):
        return None
    return split_settings(combine_settings("", stored))[0]


def apply_change(settings: dict, change: object, *, slug: str, webtoon: bool) -> dict:
    """The settings after the reader's change. `mode` is stored for the kind
    of chapter being read, `direction` for this series ("auto" forgets the
    series' choice); turning on `double` goes back to the chapter's own
    offset; other keys are taken as they are (then checked)."""
    updated = normalize_settings(settings)
    if not isinstance(change, dict):
        return updated
    if change.get("double") is True and not updated["double"] and "offset" not in change:
        # Double view turned on starts from the chapter's own offset (自動).
        updated["offset"] = None
    for key, value in change.items():
        if key == "direction":
            updated = _with_direction(updated, slug, value)
            continue
        if key == "mode":
            key = "webtoon_mode" if webtoon else "manga_mode"
        elif key not in DEFAULT_SETTINGS or key in ("manga_mode", "webtoon_mode", "directions"):
            continue
        candidate = normalize_settings({**updated, key: value})
        # A refused value keeps the previous one rather than the default.
        if candidate[key] == value and type(candidate[key]) is type(value):
            updated = candidate
    return updated


def _with_direction(settings: dict, slug: str, value: object) -> dict:
    if value not in (*DIRECTIONS, "auto") or not _SLUG.fullmatch(slug or ""):
        return settings
    directions = {key: item for key, item in settings["directions"].items() if key != slug}
    if value != "auto":
        directions[slug] = value  # newest last: the oldest choices are forgotten first
    return normalize_settings({**settings, "directions": directions})


def effective_mode(settings: dict, webtoon: bool) -> str:
    return settings["webtoon_mode"] if webtoon else settings["manga_mode"]


def direction_choice(settings: dict, slug: str) -> str:
    """What the settings sheet shows as chosen: "auto" is 作品の設定."""
    return settings["directions"].get(slug, "auto")


def effective_direction(settings: dict, slug: str, series_direction: str, webtoon: bool) -> str:
    """Paged reading direction: the visitor's choice for this series, else
    the series' own."""
    return settings["directions"].get(slug) or series_default_direction(series_direction, webtoon)


def preload_count(preload: int, page_count: int) -> int:
    """How many pages ahead to preload."""
    if preload == -1:
        return page_count
    if preload > 0:
        return preload
    return page_count if page_count < WHOLE_CHAPTER_PRELOAD_BELOW else LONG_CHAPTER_PRELOAD


def view_day(now: datetime | None = None) -> date:
    return (now or datetime.now(UTC)).astimezone(JST).date()


def millis(iso: str) -> int:
    """Epoch milliseconds of a history timestamp (0 when unreadable)."""
    try:
        moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except (AttributeError, TypeError, ValueError):
        return 0
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return int(moment.timestamp() * 1000)


def device_time(read_at: object, now: datetime) -> datetime:
    """The device's time of a progress report (epoch ms), unless it is absurd.

    Positions saved in the browser carry the device's clock, so history
    entries do too: comparing them is then comparing one clock."""
    try:
        moment = datetime.fromtimestamp(int(read_at) / 1000, UTC)  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError, OSError):
        return now
    return moment if abs(moment - now) <= MAX_CLOCK_SKEW else now


def resume_position(
    entries: list[reading.HistoryEntry], slug: str, chapter: str, page_count: int
) -> tuple[int, float, int]:
    """Where the series' history reopens a chapter: the saved page, offset and
    time (epoch ms) when its last read chapter is this one, else the first
    page at time 0. The browser compares this with its own per-chapter store
    (assets/js/reader/positions.js) and takes the newer."""
    entry = reading.entry_for(entries, slug)
    if entry is None or entry.chapter != chapter or page_count <= 0:
        return 0, 0.0, 0
    return min(entry.page, page_count - 1), entry.offset, millis(entry.read_at)


def clamp_progress(page: object, offset: object, page_count: int) -> tuple[int, float]:
    """A progress report from the browser, made safe to store."""
    try:
        index = int(page)  # type: ignore[arg-type]
        fraction = float(offset)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):
        return 0, 0.0
    if fraction != fraction:  # NaN
        fraction = 0.0
    return max(0, min(index, max(page_count - 1, 0))), min(1.0, max(0.0, fraction))


# Chapter and series keys the browser reports are at most this long.
MAX_KEY_LENGTH = 120


def chapter_option(chapter: ChapterView) -> dict[str, str]:
    return {"url": chapter.url, "label": routes.unit_label(chapter.number, chapter.title), "number": chapter.number}


def report_key(value: object) -> str:
    return value if isinstance(value, str) and len(value) <= MAX_KEY_LENGTH else ""
