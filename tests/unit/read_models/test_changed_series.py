"""Which series a publish changed, as the held catalogue tells its listeners
(web/publish_push.py pushes them to open tabs)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import timedelta

from manga_app.read_models.held import EMPTY, HeldCatalogue, Snapshot, changed_series
from tests.unit.search.builders import BASE, item


def snapshot(*items) -> Snapshot:
    return Snapshot.build(items, (), "v")


def test_a_new_chapter_names_its_series_and_nothing_else():
    neko, inu = item("ねこ", slug="neko", age_days=3), item("いぬ", slug="inu", age_days=5)
    before = snapshot(neko, inu)
    later = replace(neko, latest_chapter=2.0, chapters=2, updated_at=BASE + timedelta(hours=1))
    assert changed_series(before, snapshot(later, inu)) == ["neko"]
    assert changed_series(before, snapshot(neko, inu)) == []


def test_a_new_series_is_named_and_the_first_load_names_none():
    neko = item("ねこ", slug="neko", age_days=3)
    fresh = item("とり", slug="tori")
    assert changed_series(snapshot(neko), snapshot(neko, fresh)) == ["tori"]
    assert changed_series(EMPTY, snapshot(neko, fresh)) == []


def test_listeners_hear_of_the_changed_series():
    """Each listener runs in a task of its own, after the check that found the change."""
    told: list[list[str]] = []

    async def listener(slugs):
        told.append(slugs)

    async def run():
        held = HeldCatalogue("http://held.invalid", refresh_seconds=3600)
        held.listen(listener)
        held._snapshot, held._checked_at = snapshot(item("ねこ", slug="neko", age_days=1)), 0.0
        newer = snapshot(item("ねこ", slug="neko"))
        await held._tell(changed_series(held._snapshot, newer))
        await asyncio.sleep(0)

    asyncio.run(run())
    assert told == [["neko"]]
