"""A chapter's pages from the database, in the published manifest's form
(`{url, saver_url, width, height}`), for the server-written head.

The reader itself reads the encrypted manifest; the head only needs the
first pages and every page's size, and the database answers that without a
request to the catalogue server. Each page is built by the publisher's own
`manifest_page`, so these are the URLs the reader will show."""

from __future__ import annotations

from sqlmodel import Session, select

from manga_app.catalogue.models import Chapter, Page, Series
from manga_app.catalogue.naming import to_hundredths
from manga_app.catalogue.publisher import manifest_page


def chapter_pages(*, session: Session, series_slug: str, number: str, media_base_url: str) -> list[dict]:
    """The pages of chapter `number` of a series in reading order ([] when unknown)."""
    try:
        hundredths = to_hundredths(number)
    except ValueError:
        return []
    rows = session.exec(
        select(Page.media_key, Page.width, Page.height)
        .join(Chapter, Chapter.id == Page.chapter_id)
        .join(Series, Series.id == Chapter.series_id)
        .where(Series.slug == series_slug, Chapter.number_hundredths == hundredths)
        .order_by(Page.index)
    )
    return [manifest_page(media_base_url, media_key, width, height) for media_key, width, height in rows]
