"""The audit log of the operator's changes: who, when, what, before -> after.
Only ever appended to (the console shows it and has no way to change it).
Nothing here commits: an entry lands with the change it records."""

from __future__ import annotations

import json

from sqlmodel import Session, select

from manga_app.catalogue.models import AuditEntry

__all__ = ["latest", "record"]

MAX_VALUE = 20_000


def _text(value: object) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text[:MAX_VALUE]


def record(session: Session, actor, action: str, target: str, before: object, after: object) -> None:
    """`actor` has the operator's verified uid and e-mail."""
    session.add(AuditEntry(actor_uid=actor.uid, actor_email=actor.email, action=action, target=target[:300],
                           before=_text(before), after=_text(after)))


def latest(session: Session, *, limit: int = 200, offset: int = 0) -> list[AuditEntry]:
    query = select(AuditEntry).order_by(AuditEntry.id.desc()).offset(max(offset, 0)).limit(max(1, min(limit, 500)))
    return list(session.exec(query))
