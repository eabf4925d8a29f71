"""The rankings board computed in a process of its own (discovery.HeldBoard).

Computed in a thread of the web worker, the board (5-14 s of CPU at 100,000
series, every REFRESH_SECONDS) held the GIL from every render meanwhile: a
title page's first render went from 18 ms p95 to 170-230 ms for as long as
it ran. Here the worker hands the catalogue's few columns the board needs
to `python -m manga_app.read_models.board_process` on stdin and reads the
computed parts back from its stdout, both pickled (compact arrays and one
string of slugs: tens of milliseconds of the worker's time, not seconds).
The child reads the same database by its URL and runs the same
compute_board, so the board is the one the thread computed."""

from __future__ import annotations

import pickle
import subprocess
import sys
from array import array
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from manga_app.read_models.columns import TextColumn, row_of

_ROOT = Path(__file__).resolve().parents[2]
# What a Board holds besides its snapshot (and its lock, made anew).
_PARTS = ("periods", "calendar", "updated_today", "genre_members", "_rankings", "_orders")


@dataclass
class Columns:
    """The catalogue as compute_board reads it: slugs, update times,
    statuses and genres, by catalogue id (a Catalogue's own columns)."""

    count: int
    slugs: TextColumn
    updated: array
    status: bytes
    genre_ids: array
    genre_ends: array
    genre_names: tuple[str, ...]

    @classmethod
    def of(cls, catalogue: Any) -> Columns:
        return cls(len(catalogue), catalogue.slugs, catalogue.updated, catalogue.status, catalogue.genre_ids,
                   catalogue._genre_ends, catalogue.genre_names)

    def __len__(self) -> int:
        return self.count

    def genres_of(self, index: int) -> array:
        return row_of(self.genre_ids, self.genre_ends, index)


@dataclass
class _Snapshot:
    mangas: Columns


class BoardProcessError(RuntimeError):
    """The board's process failed; its error output is the message."""


def compute(columns: Columns, db_url: str, now: datetime) -> dict[str, Any]:
    """The board's parts (see _PARTS), computed by a child process."""
    done = subprocess.run([sys.executable, "-m", __name__], input=pickle.dumps((columns, db_url, now)),
                          capture_output=True, check=False, cwd=_ROOT)
    if done.returncode != 0:
        raise BoardProcessError(done.stderr.decode("utf-8", "replace")[-2000:] or f"exit {done.returncode}")
    return pickle.loads(done.stdout)


def _main() -> None:
    from sqlmodel import Session

    from manga_app.core.db import make_engine
    from manga_app.read_models.discovery import compute_board

    columns, db_url, now = pickle.loads(sys.stdin.buffer.read())
    engine = make_engine(db_url)
    with Session(engine) as session:
        board = compute_board(session=session, snapshot=_Snapshot(columns), now=now)
    engine.dispose()
    sys.stdout.buffer.write(pickle.dumps({name: getattr(board, name) for name in _PARTS}, protocol=pickle.HIGHEST_PROTOCOL))


if __name__ == "__main__":
    _main()
