"""The console's changes, each one transaction then one publish (what the CLI
does): metadata edits (catalogue.metadata) and the CLI's own library edits
(catalogue.edits_cli: remove, renumber, merge-series, with their dry run).
Blocking: the states call these on a thread. Every outcome is a `Done`: the
lines to show, or the English message of each refused field; never an
exception for bad input."""

from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

import sqlalchemy as sa
from sqlmodel import Session, select

from manga_app.catalogue import audit, metadata
from manga_app.catalogue.edits_cli import UnknownName, run_edit
from manga_app.catalogue.library import EditError
from manga_app.catalogue.media import MediaStore
from manga_app.catalogue.models import Series
from manga_app.catalogue.publisher import publish_site
from manga_app.core.config import get_settings
from manga_app.core.db import shared_engine

logger = logging.getLogger(__name__)
SAVED_NOT_PUBLISHED = ("Saved, but publishing failed ({error}); the site shows the change after the next "
                       "publish (python -m manga_app.catalogue publish).")


@dataclass
class Done:
    lines: list[str] = field(default_factory=list)
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.errors


def publish() -> str:
    """Publish what changed; "" when done, else why not (the change is saved)."""
    settings = get_settings()
    try:
        with Session(shared_engine()) as session:
            publish_site(session=session, settings=settings)
    except (OSError, ValueError, sa.exc.SQLAlchemyError) as error:
        logger.exception("The console's publish failed")
        return SAVED_NOT_PUBLISHED.format(error=error.__class__.__name__)
    return ""


def _in_series(slug: str, change: Callable[[Session, Series], list[str]]) -> Done:
    """`change` in one transaction on the series `slug`, then one publish."""
    with Session(shared_engine()) as session:
        series = session.exec(select(Series).where(Series.slug == slug)).first()
        if series is None:
            return Done(errors={"form": f"There is no series '{slug}' any more (removed or merged)."})
        try:
            lines = change(session, series)
            if not lines:
                session.rollback()
                return Done(["Nothing changed."])
            session.commit()
        except metadata.FormRefused as refused:
            session.rollback()
            return Done(errors=refused.errors)
        except EditError as error:
            session.rollback()
            return Done(errors={"form": f"{error}; nothing changed."})
        except (sa.exc.SQLAlchemyError, OSError) as error:
            session.rollback()
            logger.exception("A console edit of %s failed", slug)
            return Done(errors={"form": f"The change could not be saved ({error.__class__.__name__}); nothing changed."})
    failed = publish()
    return Done([*lines, failed or "Published: the site shows it after its next catalogue refresh."])


def edit_series(slug: str, form: dict, actor: metadata.Actor) -> Done:
    def change(session: Session, series: Series) -> list[str]:
        return [f"Changed {name.replace('_', ' ')}." for name in metadata.edit_series(session, series, form, actor)]
    return _in_series(slug, change)


def edit_unit_title(slug: str, unit_key: int, title: object, actor: metadata.Actor) -> Done:
    def change(session: Session, series: Series) -> list[str]:
        return ["Changed the unit's title."] if metadata.edit_unit_title(session, series, unit_key, title, actor) else []
    return _in_series(slug, change)


def set_cover(slug: str, unit_key: int, page_number: int, actor: metadata.Actor) -> Done:
    media = MediaStore(get_settings().media_dir)
    return _in_series(slug, lambda session, series: [
        "Cover set." if metadata.set_cover(session, series, unit_key, page_number, media, actor) else ""])


def unlock(slug: str, name: str, actor: metadata.Actor, unit_key: int | None = None) -> Done:
    def change(session: Session, series: Series) -> list[str]:
        done = metadata.unlock(session, series, name, actor, unit_key)
        return [f"Unlocked {name.replace('_', ' ')}: the next import may change it."] if done else []
    return _in_series(slug, change)


def library_edit(command: str, values: dict[str, object], actor: metadata.Actor, *, dry_run: bool) -> Done:
    """remove / renumber / merge-series through the CLI's own code
    (edits_cli.run_edit), with its dry run; the audit entry lands in the
    edit's transaction."""
    args = argparse.Namespace(command=command, dry_run=dry_run, **values)

    def record(session: Session, lines: list[str]) -> None:
        audit.record(session, actor, command, " ".join(str(v) for v in values.values() if v)[:300], "", lines)

    try:
        lines = run_edit(args, shared_engine(), MediaStore(get_settings().media_dir), before_commit=record)
    except (UnknownName, EditError) as error:
        return Done(errors={command: f"{error}; nothing changed."})
    except sa.exc.SQLAlchemyError as error:
        logger.exception("A console %s failed", command)
        return Done(errors={command: f"The change could not be saved ({error.__class__.__name__}); nothing changed."})
    if dry_run:
        return Done(lines)
    failed = publish()
    return Done([*lines, failed or "Published: the site shows it after its next catalogue refresh."])
