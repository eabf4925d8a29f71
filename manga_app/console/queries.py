"""What the console reads: the overview's counts, the series list, one
series with its units. Each takes a session."""

from __future__ import annotations

import shutil
from datetime import datetime
from pathlib import Path

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.accounts.models import UserAccount
from manga_app.catalogue.library import PARKED_KEY
from manga_app.catalogue.models import Chapter, Page, Series
from manga_app.catalogue.naming import describe_unit
from manga_app.core import routes
from manga_app.engagement.models import ChapterViewMark

__all__ = ["counts", "disk", "failures", "last_imports", "series_rows", "unit_rows"]


def _when(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def counts(session: Session) -> list[dict]:
    """[{label, value}] for the overview's tiles."""
    pages, media = session.exec(select(sa.func.count(Page.id), sa.func.coalesce(sa.func.sum(Page.bytes), 0))).one()
    accounts, guests = session.exec(select(sa.func.count(UserAccount.uid), sa.func.coalesce(
        sa.func.sum(sa.case((UserAccount.is_anonymous, 1), else_=0)), 0))).one()
    values = [
        ("Series", session.exec(select(sa.func.count(Series.id))).one()),
        ("Units", session.exec(select(sa.func.count(Chapter.id))).one()),
        ("Pages", pages),
        ("Media", size_text(int(media))),
        ("Readers (counted views)", session.exec(select(sa.func.count(sa.distinct(ChapterViewMark.visitor)))).one()),
        ("Accounts", f"{accounts} ({guests} guests)"),
    ]
    return [{"label": label, "value": f"{value:,}" if isinstance(value, int) else value} for label, value in values]


def size_text(size: int) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size < 1024 or unit == "TB":
            return f"{size:,.0f} {unit}" if unit == "B" else f"{size:,.1f} {unit}"
        size /= 1024
    return ""


def disk(data_dir: Path) -> list[dict]:
    try:
        usage = shutil.disk_usage(data_dir)
    except OSError as error:
        return [{"label": "Disk", "value": f"unreadable: {error.strerror}"}]
    return [{"label": "Disk free", "value": f"{size_text(usage.free)} of {size_text(usage.total)}"},
            {"label": "Disk used", "value": f"{usage.used / usage.total:.0%}" if usage.total else "?"}]


def last_imports(session: Session, limit: int = 10) -> list[dict]:
    query = (select(Chapter, Series.title, Series.slug).join(Series, Series.id == Chapter.series_id)
             .order_by(Chapter.created_at.desc(), Chapter.id.desc()).limit(limit))
    return [{"when": _when(unit.created_at), "series": title, "unit": describe_unit(unit.number_hundredths),
             "pages": str(unit.page_count), "url": routes.admin_series_url(slug)}
            for unit, title, slug in session.exec(query)]


def failures(session: Session, limit: int = 20) -> list[dict]:
    """Things the operator should look at: units without pages, units parked
    by an interrupted rename, series without a cover."""
    found: list[dict] = []
    for unit, slug in session.exec(select(Chapter, Series.slug).join(Series, Series.id == Chapter.series_id)
                                   .where(sa.or_(Chapter.page_count == 0, Chapter.number_hundredths >= PARKED_KEY))
                                   .limit(limit)):
        what = "parked by an unfinished rename" if unit.number_hundredths >= PARKED_KEY else "has no pages"
        found.append({"text": f"{slug}: a unit from {unit.source_path or 'no file'} {what}",
                      "url": routes.admin_series_url(slug)})
    for slug, title in session.exec(select(Series.slug, Series.title).where(Series.cover_key.is_(None)).limit(limit)):
        found.append({"text": f"{title} ({slug}) has no cover", "url": routes.admin_series_url(slug)})
    return found[:limit]


def series_rows(session: Session, text: str = "", limit: int = 100) -> list[dict]:
    query = select(Series).order_by(Series.updated_at.desc(), Series.id.desc()).limit(limit)
    needle = text.strip().lower()
    if needle:
        query = query.where(sa.or_(Series.search_text.contains(needle, autoescape=True),
                                   Series.slug.contains(needle, autoescape=True)))
    units = dict(session.exec(select(Chapter.series_id, sa.func.count(Chapter.id)).group_by(Chapter.series_id)).all())
    return [{"slug": series.slug, "title": series.title, "units": str(units.get(series.id, 0)),
             "status": series.status, "updated": _when(series.updated_at), "url": routes.admin_series_url(series.slug)}
            for series in session.exec(query)]


def unit_rows(session: Session, series_id: int, locked_titles: set[int]) -> list[dict]:
    query = select(Chapter).where(Chapter.series_id == series_id).order_by(Chapter.number_hundredths)
    return [{"key": str(unit.number_hundredths), "label": describe_unit(unit.number_hundredths),
             "kind": unit.kind, "title": unit.title, "pages": str(unit.page_count),
             "locked": unit.id in locked_titles} for unit in session.exec(query)]
