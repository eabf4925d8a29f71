"""Personal keys (the OPDS catalogue's, and the Atom feed's: `table`):
keyword-only queries taking a session, plus the key's own format. A user
has at most one key of each kind; creating one replaces the old (which
stops working), revoking deletes it. Only the key's sha256 is stored, so a
leaked database reveals no working key. Callers commit."""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import datetime

from sqlmodel import Session, delete, select

from manga_app.accounts.models import FeedKey, OpdsKey
from manga_app.catalogue.models import utc_now

# 32 URL-safe characters: 192 bits from the OS's generator.
KEY_BYTES = 24
KeyTable = type[OpdsKey] | type[FeedKey]
_KEY_FORMAT = re.compile(r"^[A-Za-z0-9_-]{32}$")


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def looks_like_key(key: str) -> bool:
    return bool(_KEY_FORMAT.match(key))


def create_key(*, session: Session, uid: str, now: datetime | None = None, table: KeyTable = OpdsKey) -> str:
    """A fresh key for `uid`, replacing any older one; returns the key (shown once)."""
    key = new_key()
    row = session.exec(select(table).where(table.uid == uid)).first() or table(uid=uid)
    row.key_hash, row.created_at = hash_key(key), now or utc_now()
    session.add(row)
    session.flush()
    return key


def revoke_key(*, session: Session, uid: str, table: KeyTable = OpdsKey) -> bool:
    """True when a key was revoked."""
    return bool(session.exec(delete(table).where(table.uid == uid)).rowcount)


def key_created_at(*, session: Session, uid: str, table: KeyTable = OpdsKey) -> datetime | None:
    """When the user's current key was created (None: no key)."""
    return session.exec(select(table.created_at).where(table.uid == uid)).first()


def uid_for_key(*, session: Session, key: str, table: KeyTable = OpdsKey) -> str | None:
    """Whose key this is; None for a malformed, unknown or revoked key."""
    if not looks_like_key(key):
        return None
    return session.exec(select(table.uid).where(table.key_hash == hash_key(key))).first()
