"""Personal OPDS keys on real SQLite and PostgreSQL: one key per user,
stored as its hash; a new key replaces the old; revoking, or deleting the
account, leaves no key that works."""

from __future__ import annotations

import hashlib

from sqlmodel import select

from manga_app.accounts import opds_keys, repository
from manga_app.accounts.models import OpdsKey, UserAccount
from tests.unit.accounts.accounts_db import two_users


def test_a_key_names_its_user_and_only_its_hash_is_stored(session):
    a, b = two_users(session)
    key_a = opds_keys.create_key(session=session, uid=a)
    key_b = opds_keys.create_key(session=session, uid=b)
    assert key_a != key_b and opds_keys.looks_like_key(key_a)
    assert opds_keys.uid_for_key(session=session, key=key_a) == a
    assert opds_keys.uid_for_key(session=session, key=key_b) == b
    stored = session.exec(select(OpdsKey.key_hash).where(OpdsKey.uid == a)).one()
    assert stored == hashlib.sha256(key_a.encode()).hexdigest()
    assert opds_keys.key_created_at(session=session, uid=a) is not None


def test_a_new_key_replaces_the_old_and_a_revoked_key_names_nobody(session):
    a, _ = two_users(session)
    old = opds_keys.create_key(session=session, uid=a)
    new = opds_keys.create_key(session=session, uid=a)
    assert opds_keys.uid_for_key(session=session, key=old) is None
    assert opds_keys.uid_for_key(session=session, key=new) == a
    assert session.exec(select(OpdsKey).where(OpdsKey.uid == a)).all().__len__() == 1
    assert opds_keys.revoke_key(session=session, uid=a)
    assert not opds_keys.revoke_key(session=session, uid=a)
    assert opds_keys.uid_for_key(session=session, key=new) is None
    assert opds_keys.key_created_at(session=session, uid=a) is None


def test_malformed_keys_are_refused_before_any_lookup(session):
    for key in ("", "short", "x" * 33, "a" * 31 + "!", "../" + "a" * 29):
        assert opds_keys.uid_for_key(session=session, key=key) is None


def test_deleting_the_account_deletes_its_key(session):
    a, b = two_users(session)
    key = opds_keys.create_key(session=session, uid=a)
    repository.merge_user(session=session, source_uid=a, target_uid=b)  # a is deleted
    session.expire_all()
    assert session.get(UserAccount, a) is None
    assert opds_keys.uid_for_key(session=session, key=key) is None
