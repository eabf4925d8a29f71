"""The operator's decisions on the staged files: confirm (once no file is in
conflict, the staging folder becomes a batch folder at once, whose import is
queued as a job on the job queue, shown in /admin/jobs), edit a chapter's placement (series, chapter or
volume, number: catalogue/placements.py) or drop one file or folder. Each
change is in the audit log; refusals are English messages (jobs.store.Refused)."""

from __future__ import annotations

import os
import secrets
import shutil
from pathlib import Path

from sqlmodel import Session

from manga_app.catalogue import audit, placements
from manga_app.catalogue.models import utc_now
from manga_app.catalogue.naming import describe_unit, unit_key
from manga_app.core.config import Settings
from manga_app.jobs import store
from manga_app.jobs.models import ImportJob
from manga_app.uploads import staging
from manga_app.uploads.plan import plan_staged

__all__ = ["confirm", "conflicts_text", "drop", "edit"]


def conflicts_text(paths: list[str]) -> str:
    """Why confirm waits: the files in conflict, named."""
    shown = ", ".join(paths[:10]) + (f" and {len(paths) - 10} more" if len(paths) > 10 else "")
    if len(paths) == 1:
        return f"Resolve the conflict first (Edit its placement, or Drop it): {shown}."
    return f"Resolve the {len(paths)} conflicts first (Edit their placement, or Drop them): {shown}."


def confirm(session: Session, settings: Settings, actor) -> ImportJob:
    """Queue the import of everything the operator staged, once no file is in
    conflict (a number the catalogue or the upload already has: which one the
    operator meant is theirs to say). Refused files are reported by the
    importer with the reasons the plan gave; the rest is imported."""
    files = staging.staged_files(settings, actor.uid)
    if not files:
        raise store.Refused("Nothing is staged: drop files or folders above first.")
    root = staging.staged_dir(settings, actor.uid)
    conflicts = [item.path for item in plan_staged(root, session.get_bind()) if item.outcome == "conflict"]
    if conflicts:
        raise store.Refused(conflicts_text(conflicts))
    batches = staging.uploads_dir(settings) / "batches"
    batches.mkdir(parents=True, exist_ok=True)
    batch = batches / f"{utc_now():%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"
    os.replace(staging.staged_dir(settings, actor.uid), batch)
    label = f"Upload of {len(files)} file{'s' if len(files) != 1 else ''}"
    return store.submit(session, batch, label, actor)


def _staged(settings: Settings, actor, path: object) -> tuple[Path, Path]:
    """(the operator's staging folder, the staged file or folder `path` in it); Refused when it is not there."""
    root = staging.staged_dir(settings, actor.uid).resolve()
    target = (root / path).resolve() if isinstance(path, str) and path and "\x00" not in path else root
    if target == root or not target.is_relative_to(root) or not target.exists():
        raise store.Refused(f"{str(path)[:200]} is not staged any more.")
    return root, target


def edit(session: Session, settings: Settings, actor, path: str, series: object, kind: object, number: object) -> str:
    """Place the staged chapter `path` as `kind` `number` of `series`; the message."""
    root, _ = _staged(settings, actor, path)
    try:
        placement = placements.make(series, kind, number)
    except ValueError as error:
        raise store.Refused(str(error)) from None
    chosen = placements.read(root)
    chosen[path] = placement
    placements.write(root, chosen)
    unit = describe_unit(unit_key(placement.kind, placement.hundredths))
    audit.record(session, actor, "edit-placement", f"staged {path}", "", f"{placement.series_title}, {unit}")
    session.commit()
    return f"{path} is placed as {unit} of {placement.series_title}."


def drop(session: Session, settings: Settings, actor, path: str) -> str:
    """Remove a staged file or folder (a chapter of the plan), and its placement; the message."""
    root, target = _staged(settings, actor, path)
    if target.is_dir():
        shutil.rmtree(target)
    else:
        target.unlink()
    for folder in target.parents:  # folders left empty go too
        if folder == root or not folder.is_relative_to(root) or any(folder.iterdir()):
            break
        folder.rmdir()
    chosen = placements.read(root)
    if chosen.pop(path, None) is not None:
        placements.write(root, chosen)
    audit.record(session, actor, "drop-upload", f"staged {path}", path, "")
    session.commit()
    return f"Dropped {path}."


