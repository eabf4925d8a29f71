"""A reader's data is theirs: everything the site keeps about one account,
to download (`export`) or to delete (`delete`), in one transaction each.

What belongs to an account is found in the database itself, not in a list
kept here: every table with a `uid` column (follows, progress, history
removals, OPDS keys, and whatever later features add), and every table with
a `visitor` column holding the account's keyed hash (counted views, likes),
then the account's own row. Secrets are never exported, only that they
exist: a column whose name says hash, secret or digest is left out (the OPDS
key's existence shows as its row without `key_hash`). Queries take a session."""

from __future__ import annotations

from datetime import date, datetime

import sqlalchemy as sa
from sqlmodel import Session

ACCOUNT_TABLE = "user_account"
_SECRET_WORDS = ("hash", "secret", "digest")
# What each table is, in the reader's words (a table not listed here is その他).
LABELS = {
    ACCOUNT_TABLE: "プロフィール（名前・メールアドレス）",
    "follow": "フォロー",
    "reading_progress": "読んだ位置と既読",
    "history_removal": "閲覧履歴の削除記録",
    "opds_key": "OPDSキー",
    "chapter_view": "閲覧数の記録（今日と昨日）",
}
OTHER = "その他のデータ"


def _owned_tables(session: Session) -> list[tuple[str, str]]:
    """(table, column) pairs naming the account's rows: `uid` or `visitor`."""
    inspector = sa.inspect(session.connection())
    found = []
    for table in sorted(inspector.get_table_names()):
        if table == ACCOUNT_TABLE:
            continue
        columns = {column["name"] for column in inspector.get_columns(table)}
        found += [(table, column) for column in ("uid", "visitor") if column in columns]
    return found


def _who(column: str, uid: str, visitor: str) -> str:
    return uid if column == "uid" else visitor


def _plain(value: object) -> object:
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    return value


def _rows(session: Session, table: str, column: str, value: str) -> list[dict]:
    result = session.connection().execute(sa.text(f'SELECT * FROM "{table}" WHERE "{column}" = :value'), {"value": value})
    return [
        {name: _plain(cell) for name, cell in row._mapping.items()
         if name not in ("uid", "visitor") and not any(word in name for word in _SECRET_WORDS)}
        for row in result
    ]


def export(*, session: Session, uid: str, visitor: str) -> dict:
    """Every row of the account, by table: `{"account": {...}, "tables": {name: [rows]}}`.
    `visitor` is the account's keyed hash in tables that store it (view_counts.visitor_key)."""
    account = _rows(session, ACCOUNT_TABLE, "uid", uid)
    tables = {}
    for table, column in _owned_tables(session):
        rows = _rows(session, table, column, _who(column, uid, visitor))
        if rows:
            tables[table] = rows
    return {"account": account[0] if account else None, "tables": tables}


def delete(*, session: Session, uid: str, visitor: str) -> dict[str, int]:
    """Delete every row of the account (the caller commits once); returns the
    number of rows deleted per table, the account's own row included."""
    deleted: dict[str, int] = {}
    connection = session.connection()
    for table, column in _owned_tables(session):
        count = connection.execute(sa.text(f'DELETE FROM "{table}" WHERE "{column}" = :value'),
                                   {"value": _who(column, uid, visitor)}).rowcount
        if count:
            deleted[table] = deleted.get(table, 0) + count
    count = connection.execute(sa.text(f'DELETE FROM "{ACCOUNT_TABLE}" WHERE uid = :uid'), {"uid": uid}).rowcount
    if count:
        deleted[ACCOUNT_TABLE] = count
    return deleted


def described(deleted: dict[str, int]) -> list[str]:
    """What was deleted, one line per kind, in Japanese (たとえば「フォロー: 3件」)."""
    totals: dict[str, int] = {}
    for table, count in deleted.items():
        label = LABELS.get(table, OTHER)
        totals[label] = totals.get(label, 0) + count
    return [f"{label}: {count}件" for label, count in totals.items()]
