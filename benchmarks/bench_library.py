"""Reading lists (issue 33): a library of 500 series' unread counts and
更新あり, at 100,000 series in the catalogue.

On a copy of the synthetic 100,000-series database (benchmarks/synthetic.py,
one chapter each) the library's 500 series get 40 chapters each (50 of them
20 volumes instead), 30,000 other series 10 chapters each (about 420,000
units in all), and one account follows the 500 with mixed statuses and
about 4,000 progress rows (chapters read to the end, some left part-way).
The figure is what /library pays for its figures: unread.account_library in
a fresh session (service.account_library), p50/p95 over ROUNDS calls;
target p95 <= 20 ms. Run on SQLite (the local default); PostgreSQL too when
tests/postgres.py can make a scratch database."""

from __future__ import annotations

import random
import shutil
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa

from benchmarks import synthetic

LIBRARY = 500
UNITS_PER_SERIES = 40
VOLUME_SERIES = 50
VOLUMES = 20
OTHER_SERIES = 30_000
OTHER_UNITS = 10
ROUNDS = 300
TARGET_P95_MS = 20.0
UID = "bench-reader"


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def _fill(url: str) -> None:
    from manga_app.accounts import lists
    from manga_app.accounts.models import Follow, ReadingProgress, UserAccount
    from manga_app.catalogue.models import Chapter, Series
    from manga_app.core.db import make_engine

    rng = random.Random(33)
    engine = make_engine(url)
    now = datetime.now(UTC)
    with engine.begin() as conn:
        count = conn.execute(sa.select(sa.func.count()).select_from(Series.__table__)).scalar_one()
        next_id = conn.execute(sa.select(sa.func.max(Chapter.__table__.c.id))).scalar_one() + 1
        chosen = rng.sample(range(1, count + 1), LIBRARY + OTHER_SERIES)
        library, others = chosen[:LIBRARY], chosen[LIBRARY:]
        slugs = dict(conn.execute(sa.select(Series.__table__.c.id, Series.__table__.c.slug)
                                  .where(Series.__table__.c.id.in_(library))).all())
        rows = []
        for position, series_id in enumerate(library + others):
            volumes = position < VOLUME_SERIES
            total = VOLUMES if volumes else (UNITS_PER_SERIES if position < LIBRARY else OTHER_UNITS)
            for n in range(2, total + 2):
                key = (lists.VOLUME_START if volumes else 0) + n * 100
                published = now - timedelta(days=total + 2 - n, hours=rng.randint(0, 20))
                rows.append({"id": next_id, "series_id": series_id, "number_hundredths": key, "kind": "volume" if volumes else "chapter",
                             "title": "", "slug": "", "published_at": published, "views": 0, "page_count": 20,
                             "source_path": f"/bench/{next_id}", "fingerprint": f"bench-{next_id}", "created_at": published})
                next_id += 1
            if len(rows) >= 20_000:
                conn.execute(sa.insert(Chapter.__table__), rows)
                rows = []
        if rows:
            conn.execute(sa.insert(Chapter.__table__), rows)
        conn.execute(sa.insert(UserAccount.__table__), [{"uid": UID, "email": "", "name": "", "avatar": "", "is_anonymous": False,
                                                        "created_at": now, "updated_at": now}])
        follows, progress = [], []
        for position, series_id in enumerate(library):
            slug = slugs[series_id]
            follows.append({"uid": UID, "series_slug": slug, "status": rng.choice(lists.STATUSES),
                            "created_at": now - timedelta(days=rng.randint(0, 400)),
                            "opened_at": now - timedelta(days=rng.randint(0, 30)) if rng.random() < 0.7 else None})
            if position % 5 == 4:
                continue  # never read
            base = lists.VOLUME_START if position < VOLUME_SERIES else 0
            for n in range(1, rng.randint(2, 10)):
                progress.append({"uid": UID, "series_slug": slug, "chapter_hundredths": base + n * 100, "page": 19,
                                 "offset": 0.0, "finished": rng.random() < 0.9, "updated_at": now - timedelta(days=rng.randint(0, 60))})
        conn.execute(sa.insert(Follow.__table__), follows)
        conn.execute(sa.insert(ReadingProgress.__table__), progress)
    engine.dispose()


def _timings(url: str) -> tuple[list[float], int, list[float]]:
    from sqlmodel import Session

    from manga_app.accounts import unread
    from manga_app.core.db import make_engine

    engine = make_engine(url)
    spent, cpu = [], []
    for _ in range(ROUNDS + 20):
        started, processed = time.perf_counter(), time.process_time()
        with Session(engine) as session:
            figures = unread.account_library(session=session, uid=UID)
        spent.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - processed) * 1000)
    engine.dispose()
    assert len(figures) == LIBRARY and any(row.unread for row in figures)
    return spent[20:], sum(row.unread for row in figures), cpu[20:]


def _postgres(source_url: str) -> list[float] | None:
    """The same rows in a scratch PostgreSQL database, when one can be made."""
    try:
        from tests.postgres import scratch_database
    except ImportError:
        return None
    from manga_app.accounts.models import Follow, ReadingProgress, UserAccount
    from manga_app.catalogue.models import Chapter, Series
    from manga_app.core.db import make_engine

    try:
        with scratch_database("bench_library") as url:
            source, target = make_engine(source_url), make_engine(url)
            with source.connect() as read, target.begin() as write:
                for model in (Series, Chapter, UserAccount, Follow, ReadingProgress):
                    table = model.__table__
                    rows = [dict(row._mapping) for row in read.execute(sa.select(table))]
                    for start in range(0, len(rows), 5_000):
                        write.execute(sa.insert(table), rows[start:start + 5_000])
            # As autovacuum leaves a table: index-only scans need its visibility map.
            with target.connect().execution_options(isolation_level="AUTOCOMMIT") as tidy:
                tidy.execute(sa.text("VACUUM ANALYZE"))
            source.dispose()
            target.dispose()
            return _timings(url)[0]
    except Exception as error:  # noqa: BLE001 - no PostgreSQL here: the SQLite figure stands alone
        print(f"   PostgreSQL skipped: {type(error).__name__}: {error}")
        return None


def run(results_dir: Path) -> dict:
    base = synthetic.catalogue_db(synthetic.SERIES)
    workdir = Path(tempfile.mkdtemp(prefix="bench-library-"))
    try:
        path = workdir / "library.db"
        shutil.copy(base.removeprefix("sqlite:///"), path)
        url = f"sqlite:///{path}"
        _fill(url)
        spent, unread_total, cpu = _timings(url)
        figures = [
            {"figure": f"unread counts, library of {LIBRARY} ({synthetic.SERIES:,} series), SQLite p95",
             "value": round(_p(spent, 0.95), 2), "unit": "ms", "target": f"<= {TARGET_P95_MS:g} ms",
             "pass": _p(spent, 0.95) <= TARGET_P95_MS},
            {"figure": "unread counts, SQLite p50", "value": round(statistics.median(spent), 2), "unit": "ms",
             "target": None, "pass": None},
            # The machine is shared: wall time follows its load, this process's CPU time much less.
            {"figure": "unread counts, SQLite CPU time of this process p95", "value": round(_p(cpu, 0.95), 2),
             "unit": "ms", "target": None, "pass": None},
            {"figure": "unread units counted (sanity)", "value": unread_total, "target": None, "pass": None},
        ]
        postgres = _postgres(url)
        if postgres:
            figures += [
                {"figure": f"unread counts, library of {LIBRARY}, PostgreSQL p95", "value": round(_p(postgres, 0.95), 2),
                 "unit": "ms", "target": f"<= {TARGET_P95_MS:g} ms", "pass": _p(postgres, 0.95) <= TARGET_P95_MS},
                {"figure": "unread counts, PostgreSQL p50", "value": round(statistics.median(postgres), 2), "unit": "ms",
                 "target": None, "pass": None},
            ]
        return {"figures": figures}
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
