"""The reader's rules as pure functions: manifest decoding, reader settings,
the once-a-day view key and the resume position.

No framework imports, so every rule is table-tested without a browser."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

from manga_app import reading
from manga_app.crypto import decrypt_text

# Pages whose side exceeds this are refused: a manifest is data from a file
# server, and absurd sizes would make the browser reserve absurd boxes.
MAX_SIDE = 30000
# Whole chapter preloaded when shorter than this (the default).
WHOLE_CHAPTER_PRELOAD_BELOW = 60
LONG_CHAPTER_PRELOAD = 6

MODES = ("vertical", "paged")
DIRECTIONS = ("auto", "rtl", "ltr")
FITS = ("auto", "width", "height", "original")
PRELOAD_CHOICES = (0, 2, 5, 10, -1)  # 0: automatic, -1: the whole chapter

DEFAULT_SETTINGS: dict = {
    # A visitor's mode for page-by-page series and for webtoons, kept apart so
    # choosing "paged" for manga never turns webtoons into pages.
    "manga_mode": "paged",
    "webtoon_mode": "vertical",
    "direction": "auto",
    "double": False,
    "offset": False,
    "fit": "auto",
    "saver": False,
    "preload": 0,
}

# The day a view belongs to: Japanese visitors expect midnight in Japan.
JST = timezone(timedelta(hours=9))
MAX_VIEW_KEYS = 500


class ManifestError(ValueError):
    """The manifest could not be turned into a non-empty page list."""


def parse_manifest_pages(plaintext: str) -> list[dict]:
    """The decrypted JSON list as `[{url, saver_url, width, height}]`.

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
        pages.append({"url": url, "saver_url": saver, "width": width, "height": height})
    return pages


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


def normalize_settings(raw: object) -> dict:
    """Known keys with allowed values; anything else falls back to the default
    (a visitor can edit localStorage)."""
    source = raw if isinstance(raw, dict) else {}
    settings = dict(DEFAULT_SETTINGS)
    for key in ("manga_mode", "webtoon_mode"):
        if source.get(key) in MODES:
            settings[key] = source[key]
    if source.get("direction") in DIRECTIONS:
        settings["direction"] = source["direction"]
    if source.get("fit") in FITS:
        settings["fit"] = source["fit"]
    for key in ("double", "offset", "saver"):
        if isinstance(source.get(key), bool):
            settings[key] = source[key]
    preload = source.get("preload")
    if isinstance(preload, int) and not isinstance(preload, bool) and preload in PRELOAD_CHOICES:
        settings["preload"] = preload
    return settings


def parse_settings(text: str) -> dict:
    try:
        return normalize_settings(json.loads(text) if text else {})
    except (TypeError, ValueError):
        return dict(DEFAULT_SETTINGS)


def dump_settings(settings: dict) -> str:
    return json.dumps(normalize_settings(settings), separators=(",", ":"), sort_keys=True)


def is_webtoon(series_direction: str) -> bool:
    return series_direction == "vertical"


def apply_change(settings: dict, change: object, series_direction: str) -> dict:
    """The settings after the reader's change: `mode` is stored for the kind
    of series being read; other keys are taken as they are (then checked)."""
    updated = normalize_settings(settings)
    if not isinstance(change, dict):
        return updated
    for key, value in change.items():
        if key == "mode":
            key = "webtoon_mode" if is_webtoon(series_direction) else "manga_mode"
        elif key not in DEFAULT_SETTINGS or key in ("manga_mode", "webtoon_mode"):
            continue
        candidate = normalize_settings({**updated, key: value})
        # A refused value keeps the previous one rather than the default.
        if candidate[key] == value and type(candidate[key]) is type(value):
            updated = candidate
    return updated


def effective_mode(settings: dict, series_direction: str) -> str:
    return settings["webtoon_mode"] if is_webtoon(series_direction) else settings["manga_mode"]


def effective_direction(settings: dict, series_direction: str) -> str:
    """Paged reading direction: the visitor's choice, else the series' own
    (manga right-to-left; left-to-right and webtoon series left-to-right)."""
    if settings["direction"] in ("rtl", "ltr"):
        return settings["direction"]
    return "rtl" if series_direction == "rtl" else "ltr"


def preload_count(preload: int, page_count: int) -> int:
    """How many pages ahead to preload."""
    if preload == -1:
        return page_count
    if preload > 0:
        return preload
    return page_count if page_count < WHOLE_CHAPTER_PRELOAD_BELOW else LONG_CHAPTER_PRELOAD


def view_day(now: datetime | None = None) -> str:
    return (now or datetime.now(UTC)).astimezone(JST).date().isoformat()


def claim_view(text: str, key: str, day: str) -> tuple[bool, str]:
    """Whether this visitor's view of `key` counts today, and the new record.

    The record keeps only today's keys, so it stays small."""
    try:
        raw = json.loads(text) if text else {}
    except (TypeError, ValueError):
        raw = {}
    seen = raw.get("seen") if isinstance(raw, dict) and raw.get("day") == day else None
    keys = [str(item) for item in seen] if isinstance(seen, list) else []
    if key in keys:
        return False, json.dumps({"day": day, "seen": keys}, separators=(",", ":"))
    keys = [*keys, key][-MAX_VIEW_KEYS:]
    return True, json.dumps({"day": day, "seen": keys}, separators=(",", ":"))


def resume_position(entries: list[reading.HistoryEntry], slug: str, chapter: str, page_count: int) -> tuple[int, float]:
    """Where to reopen a chapter: the saved page and offset when the history's
    last read chapter of the series is this one, else the first page."""
    entry = reading.entry_for(entries, slug)
    if entry is None or entry.chapter != chapter or page_count <= 0:
        return 0, 0.0
    return min(entry.page, page_count - 1), entry.offset


def clamp_progress(page: object, offset: object, page_count: int) -> tuple[int, float]:
    """A progress report from the browser, made safe to store."""
    try:
        index = int(page)  # type: ignore[arg-type]
        fraction = float(offset)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return 0, 0.0
    if fraction != fraction:  # NaN
        fraction = 0.0
    return max(0, min(index, max(page_count - 1, 0))), min(1.0, max(0.0, fraction))
