"""The entries of the catalogue's feeds, from the catalogue's own read
models: series (held list items), units (title page views), genres,
authors and 五十音 rows. Pure module."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import quote

from manga_app.core import routes
from manga_app.core.display import STATUS_LABELS
from manga_app.opds import urls as opds_urls
from manga_app.opds.feeds import NAVIGATION, Entry, Link
from manga_app.opds.urls import Urls

ID_PREFIX = "urn:manga-hiroba:opds"
HTML = "text/html"
IMAGE = "http://opds-spec.org/image"
THUMBNAIL = "http://opds-spec.org/image/thumbnail"
ACQUIRE = "http://opds-spec.org/acquisition"
_IMAGE_TYPES = {"webp": "image/webp", "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png",
                "gif": "image/gif", "avif": "image/avif"}


def image_type(url: str) -> str:
    return _IMAGE_TYPES.get(url.rsplit(".", 1)[-1].lower(), "image/jpeg")


def feed_id(path: str) -> str:
    """A stable id for a feed: its (percent-encoded) path under the catalogue (keys left out)."""
    return f"{ID_PREFIX}:{quote(path, safe='/:%')}"


def cover_links(cover: str, thumbnail: str) -> tuple[Link, ...]:
    links = []
    if cover:
        links.append(Link(IMAGE, cover, image_type(cover)))
    if thumbnail or cover:
        links.append(Link(THUMBNAIL, thumbnail or cover, image_type(thumbnail or cover)))
    return tuple(links)


def navigation_entry(key: str, title: str, href: str, *, updated: datetime, content: str = "",
                     kind: str = NAVIGATION, rel: str = "subsection") -> Entry:
    media_type = opds_urls.NAVIGATION if kind == NAVIGATION else opds_urls.ACQUISITION
    return Entry(id=f"{ID_PREFIX}:{quote(key, safe=':')}", title=title, updated=updated, content=content,
                 links=(Link(rel, href, media_type),))


def series_entry(item, urls: Urls) -> Entry:
    """A series in a list (new, popular, a genre, search results...): it leads
    to its acquisition feed. `item` is a held catalogue MangaItem."""
    status = STATUS_LABELS.get(item.status, "")
    latest = routes.unit_label(item.latest_chapter) if item.chapters else ""
    facts = [part for part in (status, f"全{item.chapters}件" if item.chapters else "", f"最新 {latest}" if latest else "") if part]
    return Entry(
        id=f"{ID_PREFIX}:series:{item.slug}",
        title=item.title,
        updated=item.updated_at,
        authors=tuple(item.authors),
        categories=tuple(item.genres),
        content="・".join(facts),
        links=(
            Link("subsection", urls.series(item.slug), opds_urls.ACQUISITION, item.title),
            *cover_links(item.cover, item.cover_small),
            Link("alternate", routes.manga_url(item.slug), HTML),
        ),
    )


@dataclass(frozen=True)
class Reading:
    """Where a reader stopped in a unit (続きを読む): PSE's lastRead."""

    page: int
    at: datetime


def unit_entry(series, unit, urls: Urls, *, pages: int, reading: Reading | None = None) -> Entry:
    """One chapter or volume to read: the CBZ, its pages one by one (PSE), its
    cover. `series` and `unit` are catalogue views (SeriesView, ChapterView)."""
    label = routes.unit_label(unit.number)
    segment = routes.unit_segment(unit.number)  # `3-vol`: a volume's key stays inside
    title = f"{label} {unit.title}".strip() if unit.title and unit.title != label else label
    stream_extra = [(f"{{{opds_urls.PSE_NAMESPACE}}}count", str(pages))]
    if reading is not None:
        stream_extra += [
            (f"{{{opds_urls.PSE_NAMESPACE}}}lastRead", str(reading.page)),
            (f"{{{opds_urls.PSE_NAMESPACE}}}lastReadDate", reading.at.isoformat()),
        ]
    return Entry(
        id=f"{ID_PREFIX}:unit:{series.slug}:{segment}",
        title=title,
        updated=unit.published_at,
        authors=tuple(dict.fromkeys((*series.authors, *series.artists))),
        categories=tuple(series.genres),
        language="ja",
        issued=unit.published_at.date().isoformat(),
        content=f"{series.title} {label}・全{pages}ページ",
        links=(
            Link(ACQUIRE, urls.download(series.slug, segment), opds_urls.CBZ, f"{label}をダウンロード (CBZ)"),
            Link(opds_urls.PSE_STREAM, urls.pages(series.slug, segment), "image/jpeg", label,
                 tuple(stream_extra)),
            *cover_links(series.cover, series.cover_small),
            Link("alternate", unit.url, HTML),
        ),
    )


def in_reading_order(units: Sequence) -> list:
    """Volumes first (they hold the early chapters), then chapters, each by number."""
    return [unit for unit in units if unit.kind == "volume"] + [unit for unit in units if unit.kind != "volume"]
