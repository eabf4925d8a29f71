"""「この作品を読んだ人はこんな作品も読んでいます」: the series read by the
readers of one series, for the end card (ranked with the fallback in picks.py).

The rule. The readers of series S are, newest first, the accounts with a
reading position in S (reading history) and the visitors with a counted view
of one of S's chapters (the view marks kept: today and yesterday in Japan),
at most READERS of them. A reader is a key as view_counts.py makes it: an
account is one reader whether seen through its positions or its views
(positions are keyed by the HMAC of its uid, as its views are); a browser
not signed in is its own. Every series another of those readers read (a
position, or a counted view kept) scores one per reader; the card shows the
highest scores, the more read first on a tie. A series nobody else read
scores nothing, and the card falls back to same author, genres, popular.

Why it is cheap: four bounded, indexed queries per series (S's newest
positions through ix_progress_series_updated and its chapters' marks through
the marks' chapter index, then those readers' series through the indexes
led by uid and by visitor), at most ROWS rows each, and the answer is held
per series for CATALOGUE_REFRESH_SECONDS in each process (as the title rows
are): a series' end cards cost one computation per process in that time,
however many readers reach them."""

from __future__ import annotations

import time

import sqlalchemy as sa
from sqlmodel import Session

from manga_app.accounts.models import ReadingProgress
from manga_app.catalogue.models import Chapter, Series
from manga_app.core.config import content_key, get_settings
from manga_app.core.db import shared_engine
from manga_app.core.recent import MISSING, Recent
from manga_app.engagement.models import ChapterViewMark
from manga_app.reader.picks import also_read_counts
from manga_app.engagement.view_counts import hashing_secret, visitor_key

# Readers of a series looked at (the newest), and rows read per query.
READERS = 300
ROWS = 5000


def _newest_unique(values, limit: int) -> list:
    return list(dict.fromkeys(values))[:limit]


def readers_series(*, session: Session, series_id: int, slug: str, secret: bytes) -> dict[str, set[str]]:
    """Reader key -> slugs of the series they read, for the newest READERS readers of `slug`."""
    uids = _newest_unique(session.execute(
        sa.select(ReadingProgress.uid).where(ReadingProgress.series_slug == slug)
        .order_by(ReadingProgress.updated_at.desc()).limit(ROWS)
    ).scalars(), READERS)
    chapters = sa.select(Chapter.id).where(Chapter.series_id == series_id).scalar_subquery()
    visitors = _newest_unique(session.execute(
        sa.select(ChapterViewMark.visitor).where(ChapterViewMark.chapter_id.in_(chapters))
        .order_by(ChapterViewMark.id.desc()).limit(ROWS)
    ).scalars(), READERS)
    readers: dict[str, set[str]] = {}
    # An account's counted views are kept under its uid's key.
    visitors = list(dict.fromkeys([*visitors, *(visitor_key(secret, "u", uid) for uid in uids)]))
    if uids:
        rows = session.execute(
            sa.select(ReadingProgress.uid, ReadingProgress.series_slug).where(ReadingProgress.uid.in_(uids)).distinct().limit(ROWS)
        )
        for uid, other in rows:
            readers.setdefault(visitor_key(secret, "u", uid), set()).add(other)
    if visitors:
        rows = session.execute(
            sa.select(ChapterViewMark.visitor, Series.slug)
            .join(Chapter, Chapter.id == ChapterViewMark.chapter_id).join(Series, Series.id == Chapter.series_id)
            .where(ChapterViewMark.visitor.in_(visitors)).distinct().limit(ROWS)
        )
        for visitor, other in rows:
            readers.setdefault(visitor, set()).add(other)
    return readers


def also_read(*, session: Session, series_id: int, slug: str, secret: bytes) -> dict[str, int]:
    """Slug -> readers of `slug` who also read it (the rule above)."""
    return also_read_counts(slug, readers_series(session=session, series_id=series_id, slug=slug, secret=secret))


_held: Recent[dict[str, int]] | None = None


def series_also_read(series_id: int, slug: str) -> dict[str, int]:
    """also_read for the end card, held a while per series (see the module docstring)."""
    global _held
    settings = get_settings()
    if _held is None:
        _held = Recent(size=4096, seconds=settings.catalogue_refresh_seconds)
    key, now = (str(shared_engine().url), series_id, slug), time.monotonic()
    found = _held.get(key, now)
    if found is MISSING:
        with Session(shared_engine()) as session:
            found = also_read(session=session, series_id=series_id, slug=slug, secret=hashing_secret(content_key(settings)))
        _held.put(key, found, now)
    return found
