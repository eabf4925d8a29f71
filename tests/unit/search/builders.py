"""Catalogue items for search tests, with readings from the real generator."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from manga_app.read_models.loader import MangaItem
from manga_app.catalogue.readings import readings_for

BASE = datetime(2026, 1, 1, tzinfo=UTC)


def item(
    title: str,
    *aliases: str,
    slug: str = "",
    views: int = 0,
    genres: tuple[str, ...] = (),
    status: str = "ongoing",
    age_days: int = 0,
    authors: tuple[str, ...] = (),
) -> MangaItem:
    """A MangaItem as the publisher would list it: readings of the title and
    each alias, generated with catalogue.readings.readings_for."""
    readings = [form for text in (title, *aliases) for form in readings_for(text) if form]
    moment = BASE - timedelta(days=age_days)
    return MangaItem(
        slug=slug or f"s{abs(hash(title)) % 10**8}",
        title=title,
        alt_titles=tuple(aliases),
        cover="/media/c.webp",
        genres=genres,
        status=status,
        latest_chapter=1.0,
        updated_at=moment,
        views=views,
        created_at=moment,
        authors=authors,
        readings=tuple(readings),
        cover_small="/media/c-small.webp",
        chapters=1,
    )
