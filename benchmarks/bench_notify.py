"""Notifications (issue 33): publishing a chapter to a series followed by 100,000 accounts against none, and the header count's queries.

Two sites are built side by side in this run, each with a series imported
and published through the real importer and publisher; one series gets
FOLLOWERS accounts following it. Each round imports and publishes the
series' next chapter on both sites (the same CBZ, the order alternating),
exactly as `python -m manga_app.catalogue import` does in-process. Target:
median(followed) / median(none) <= 1.1, since nothing is written per
follower (what is unseen is worked out from publication times and one seen
mark per reader).

The header count: SQL statements the shared engine runs for
service.unseen_notifications (what NotificationState._follow calls on each
auth sync and follow) for a visitor signed out, a reader with an empty
library (target 0: no query added per page view) and a reader following
LIBRARY series (1), counted with a SQLAlchemy before_cursor_execute listener.
"""

from __future__ import annotations

import io
import secrets
import statistics
import tempfile
import time
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy as sa
from PIL import Image

FOLLOWERS = 100_000
ROUNDS = 9
TARGET_RATIO = 1.1
LIBRARY = 500
TITLE = "通知計測作品"


def _cbz(path: Path, seed: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as archive:
        for index in range(2):
            out = io.BytesIO()
            Image.new("RGB", (600, 900), ((seed * 40 + index * 90) % 255, 90, 160)).save(out, "PNG")
            archive.writestr(f"{index + 1:03}.png", out.getvalue())


class _Site:
    """A database, media store and published folder of its own."""

    def __init__(self, root: Path, followers: int) -> None:
        from manga_app.catalogue.media import MediaStore
        from manga_app.core.db import make_engine, migrate

        self.root, self.library = root, root / "library"
        url = f"sqlite:///{root / 'site.db'}"
        migrate(url)
        self.engine = make_engine(url)
        self.media, self.key = MediaStore(root / "media"), secrets.token_hex(32)
        self.publish_chapter(1)
        if followers:
            self._follow(followers)

    def publish_chapter(self, number: int) -> tuple[float, float]:
        """Import and publish chapter `number`: (wall, CPU) seconds of this process."""
        from sqlmodel import Session

        from manga_app.catalogue.importer import import_source
        from manga_app.catalogue.publisher import publish_catalogue

        _cbz(self.library / TITLE / f"{TITLE} 第{number}話.cbz", number)
        started, cpu = time.perf_counter(), time.process_time()
        report = import_source(self.library, engine=self.engine, media=self.media, workers=1)
        assert report.ok and len(report.imported) == 1, report
        with Session(self.engine) as session:
            publish_catalogue(session=session, out_dir=self.root / "published", content_key=self.key, media_base_url="/media")
        return time.perf_counter() - started, time.process_time() - cpu

    def _follow(self, count: int) -> None:
        from manga_app.accounts.models import Follow, UserAccount
        from manga_app.catalogue.models import Series

        now = datetime.now(UTC)
        with self.engine.begin() as conn:
            slug = conn.execute(sa.select(Series.slug)).scalar_one()
            conn.execute(sa.insert(UserAccount.__table__), [
                {"uid": f"reader-{n}", "email": "", "name": "", "avatar": "", "is_anonymous": n % 2 == 0,
                 "created_at": now, "updated_at": now} for n in range(count)])
            conn.execute(sa.insert(Follow.__table__), [
                {"uid": f"reader-{n}", "series_slug": slug, "created_at": now} for n in range(count)])


def _publishing(root: Path) -> tuple[list[dict], dict]:
    sites = {"followed": _Site(root / "followed", FOLLOWERS), "none": _Site(root / "none", 0)}
    times: dict[str, list[float]] = {name: [] for name in sites}
    cpu: dict[str, list[float]] = {name: [] for name in sites}
    for round_ in range(ROUNDS):
        order = list(sites) if round_ % 2 == 0 else list(reversed(sites))
        for name in order:
            wall, used = sites[name].publish_chapter(round_ + 2)
            times[name].append(wall)
            cpu[name].append(used)
        print(f"   round {round_ + 1}: followed {times['followed'][-1]:.3f} s, none {times['none'][-1]:.3f} s", flush=True)
    for site in sites.values():
        site.engine.dispose()
    followed, none = statistics.median(times["followed"]), statistics.median(times["none"])
    ratio = followed / none
    cpu_ratio = statistics.median(cpu["followed"]) / statistics.median(cpu["none"])
    figures = [
        {"figure": f"publish one chapter, {FOLLOWERS:,} followers / none", "value": round(ratio, 3),
         "target": f"<= {TARGET_RATIO}", "pass": ratio <= TARGET_RATIO},
        {"figure": "publish one chapter, followed (median)", "value": round(followed, 3), "unit": "s"},
        {"figure": "publish one chapter, no follower (median)", "value": round(none, 3), "unit": "s"},
        {"figure": "publish one chapter, CPU time followed / none", "value": round(cpu_ratio, 3)},
    ]
    return figures, {"wall_s": times, "cpu_s": cpu}


def _header_queries(root: Path) -> tuple[list[dict], dict]:
    from sqlmodel import Session

    from manga_app.accounts import repository, service
    from manga_app.accounts.models import UserAccount
    from manga_app.core import db

    url = f"sqlite:///{root / 'header.db'}"
    db.migrate(url)
    engine = db.make_engine(url)
    with Session(engine) as session:
        session.add_all([UserAccount(uid="empty"), UserAccount(uid="reader")])
        session.flush()
        slugs = [f"series-{n}" for n in range(LIBRARY)]
        for slug in slugs:
            repository.follow(session=session, uid="reader", slug=slug)
        session.commit()
    seen: list[str] = []
    sa.event.listen(engine, "before_cursor_execute", lambda *args: seen.append(args[2]))
    before, db._SHARED_ENGINE = db._SHARED_ENGINE, engine
    counts: dict[str, int] = {}
    try:
        for name, uid, followed in (("signed out", "", []), ("empty library", "empty", []),
                                    (f"{LIBRARY} followed series", "reader", slugs)):
            seen.clear()
            service.unseen_notifications(uid, followed)
            counts[name] = len(seen)
    finally:
        db._SHARED_ENGINE = before
        engine.dispose()
    figures = [
        {"figure": "header count queries, signed-out visitor", "value": counts["signed out"], "target": "0",
         "pass": counts["signed out"] == 0},
        {"figure": "header count queries, empty library", "value": counts["empty library"], "target": "0",
         "pass": counts["empty library"] == 0},
        {"figure": f"header count queries, {LIBRARY} followed series", "value": counts[f"{LIBRARY} followed series"],
         "target": "1", "pass": counts[f"{LIBRARY} followed series"] == 1},
    ]
    return figures, counts


def run(results_dir: Path) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-notify-") as temp:
        root = Path(temp)
        publish_figures, samples = _publishing(root)
        header_figures, counts = _header_queries(root)
    return {
        "figures": publish_figures + header_figures,
        "note": (f"SQLite; each round imports and publishes one 2-page chapter on both sites with the real importer "
                 f"(one worker process) and publisher; {ROUNDS} rounds, order alternating"),
        "samples": samples,
        "header_queries": counts,
    }
