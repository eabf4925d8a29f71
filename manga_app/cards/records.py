"""What browse, search and title pages show, as small typed records built
from catalogue items: a visitor's state holds these (one page of them),
never the catalogue itself. No Reflex import: plain dataclasses that Reflex
state vars can hold."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from manga_app.core import discovery, routes
from manga_app.core.display import STATUS_LABELS, format_count, relative_time_ja
from manga_app.core.phrases import boundaries
from manga_app.search.highlight import best_alternative, segments
from manga_app.search.paging import page_window

# Cover files: 160 and 320 px wide WebP, about 160 x 228.
COVER_WIDTH, COVER_HEIGHT = 160, 228


@dataclass
class Moment:
    """A time as a page shows it (3日前), with its ISO 8601 form for <time datetime>."""

    text: str = ""
    iso: str = ""


def moment(value: datetime | str, *, now: datetime) -> Moment:
    """`value` (a datetime, or a time already in ISO 8601) as seen at `now`."""
    return Moment(relative_time_ja(value, now=now), value if isinstance(value, str) else value.isoformat())


@dataclass
class Part:
    """A piece of a title or heading; `hit` marks the part a search matched,
    `wbr` a phrase boundary after it (a line may break there, and nowhere else)."""

    text: str = ""
    hit: bool = False
    wbr: bool = False


def phrase_parts(text: str, segments: Sequence[tuple[str, bool]] = ()) -> list[Part]:
    """`text` as Parts cut at its phrase boundaries and at the edges of
    `segments` (search.highlight's pieces of it, matched or not)."""
    cuts = set(boundaries(text))
    parts: list[Part] = []
    at = 0
    for piece, hit in segments or [(text, False)]:
        start = at
        for end in sorted({*(cut for cut in cuts if at < cut < at + len(piece)), at + len(piece)}):
            parts.append(Part(text[start:end], hit, end in cuts))
            start = end
        at += len(piece)
    return parts


@dataclass
class SeriesCard:
    """A series in a list: its name, its page and its cover."""

    slug: str = ""
    title: str = ""
    url: str = ""
    cover: str = ""
    parts: list[Part] = field(default_factory=list)  # the title cut at its phrases


@dataclass
class Badge:
    """完結, NEW or 更新 on a card; `kind` is its style (discovery.BADGE_LABELS)."""

    text: str = ""
    kind: str = ""


def badges_for(item: Any, *, now: datetime) -> list[Badge]:
    found = discovery.badges(status=item.status, created_at=item.created_at, updated_at=item.updated_at, now=now)
    return [Badge(discovery.BADGE_LABELS[kind], kind) for kind in found]


@dataclass
class Card(SeriesCard):
    """A series on the home, genre and search pages."""

    srcset: str = ""
    # The same sizes as AVIF, for a browser that shows it ("" when there are none).
    avif_srcset: str = ""
    chapter_label: str = ""
    chapter_url: str = ""
    updated: Moment = field(default_factory=Moment)
    views: str = ""
    status_label: str = ""
    # When the match is in an alias or reading rather than the title.
    match_parts: list[Part] = field(default_factory=list)
    badges: list[Badge] = field(default_factory=list)
    # The first author (or artist) and their page ("" when none is known).
    author: str = ""
    author_url: str = ""


@dataclass
class RankCard:
    """A series in a ranking: what a ranking row and the home's top ten show,
    and no more (a ranking page's state goes into its HTML once as markup and
    once as the JSON it hydrates from): its place, its movement since the
    period before (discovery.UP, DOWN, FRESH, SAME) and its views in the period."""

    url: str = ""
    cover: str = ""
    srcset: str = ""
    avif_srcset: str = ""  # as Card's
    parts: list[Part] = field(default_factory=list)
    badges: list[Badge] = field(default_factory=list)
    chapter_label: str = ""
    rank: int = 0
    movement: str = ""
    movement_label: str = ""  # ↑ ↓ NEW →
    movement_text: str = ""  # said to screen readers
    period_views: str = ""


_MOVEMENT_TEXT = {discovery.UP: "順位上昇", discovery.DOWN: "順位下降", discovery.FRESH: "初登場", discovery.SAME: "変動なし"}
TODAY_BADGE = Badge("本日更新", "today")


def rank_card_for(item: Any, ranked: discovery.Ranked, *, now: datetime) -> RankCard:
    return RankCard(
        **_link_and_cover(item),
        parts=phrase_parts(item.title),
        badges=badges_for(item, now=now),
        chapter_label=routes.unit_label(item.latest_chapter),
        rank=ranked.rank,
        movement=ranked.movement,
        movement_label=discovery.MOVEMENT_LABELS[ranked.movement],
        movement_text=_MOVEMENT_TEXT[ranked.movement],
        period_views=format_count(ranked.views),
    )


def calendar_card_for(item: Any, *, updated_today: bool, now: datetime) -> Card:
    """A card of the weekday calendar: 本日更新 in place of 更新 for today's updates."""
    card = card_for(item, now=now)
    if updated_today:
        card.badges = [badge for badge in card.badges if badge.kind != discovery.UPDATED] + [TODAY_BADGE]
    return card


@dataclass
class Chip:
    """A link to a genre (with its count), or a search filter chip."""

    label: str = ""
    href: str = ""
    count: str = ""
    mode: str = ""  # "include", "exclude" or "" for a search genre chip


@dataclass
class TabLink:
    label: str = ""
    href: str = ""
    current: bool = False


@dataclass
class PageLink(TabLink):
    gap: bool = False  # an ellipsis between page numbers


@dataclass
class ChapterRow:
    number: str = ""  # the unit's key (routes.VOLUME_KEY), for read marks; never in markup
    segment: str = ""  # routes.unit_segment: `12`, a volume `3-vol`
    label: str = ""  # 第N話
    title: str = ""
    url: str = ""
    published: Moment = field(default_factory=Moment)
    read: bool = False
    pages: int = 0


def avif_twin(url: str) -> str:
    """The AVIF copy the media store keeps beside a WebP cover (`-cover320.webp`
    -> `-cover320.avif`), or "" for a URL not named that way."""
    stem, dot, ext = url.rpartition(".")
    return f"{stem}.avif" if dot and ext == "webp" and "-cover" in stem.rpartition("/")[2] else ""


def cover_avif_srcset(item: Any) -> str:
    """The srcset of a series' AVIF covers (160w and 320w, as its WebP
    srcset), when the catalogue says it has them; else ""."""
    small, large = avif_twin(item.cover_small or item.cover), avif_twin(item.cover)
    return f"{small} 160w, {large} 320w" if getattr(item, "cover_avif", False) and small and large else ""


def _link_and_cover(item: Any) -> dict[str, str]:
    """A card's link to the series and its cover sizes (loader.MangaItem)."""
    return {"url": routes.manga_url(item.slug), "cover": item.cover_small,
            "srcset": f"{item.cover_small} 160w, {item.cover} 320w", "avif_srcset": cover_avif_srcset(item)}


def card_for(item: Any, *, now: datetime, terms: Sequence[str] = ()) -> Card:
    """A series card from a catalogue item (loader.MangaItem)."""
    parts = phrase_parts(item.title, segments(item.title, terms) if terms else ())
    author = next(iter((*item.authors, *getattr(item, "artists", ()))), "")
    match_parts: list[Part] = []
    if terms and not any(part.hit for part in parts):
        alternative = best_alternative((*item.alt_titles, *item.readings), terms)
        match_parts = [Part(text, hit) for text, hit in segments(alternative, terms)] if alternative else []
    return Card(
        slug=item.slug,
        title=item.title,
        **_link_and_cover(item),
        chapter_label=routes.unit_label(item.latest_chapter),
        chapter_url=routes.chapter_url(item.slug, item.latest_chapter),
        updated=moment(item.updated_at, now=now),
        views=format_count(item.views),
        status_label=STATUS_LABELS.get(item.status, ""),
        parts=parts,
        match_parts=match_parts,
        badges=badges_for(item, now=now),
        author=author,
        author_url=routes.author_url(author) if author else "",
    )


def genre_chip(name: str, total: int) -> Chip:
    return Chip(label=name, href=routes.genre_url(name), count=str(total))


def pager_links(page: int, pages: int, url_for: Callable[[int], str]) -> list[PageLink]:
    """Previous, numbered pages (with gaps) and next, as plain links so
    crawlers and the back button follow them."""
    if pages <= 1:
        return []
    links = [PageLink(label="‹ 前へ", href=url_for(page - 1) if page > 1 else "")]
    for number in page_window(page, pages):
        if number is None:
            links.append(PageLink(label="…", gap=True))
        else:
            links.append(PageLink(label=str(number), href=url_for(number), current=number == page))
    links.append(PageLink(label="次へ ›", href=url_for(page + 1) if page < pages else ""))
    return links
