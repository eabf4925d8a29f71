"""The held catalogue's watch, on a published folder that is not there
(a site started before its first publish): it keeps checking, and says so
in the log once, not every few seconds."""

from __future__ import annotations

import asyncio
import logging

from manga_app.read_models.held import HeldCatalogue
from manga_app.read_models.published import PublishedFolder


def test_a_failing_check_is_logged_once_while_it_keeps_failing(tmp_path, caplog) -> None:
    held = HeldCatalogue("http://site.invalid", transport=PublishedFolder(tmp_path / "published"))
    checks = 0
    refresh = held.refresh

    async def counted(**kwargs):
        nonlocal checks
        checks += 1
        return await refresh(**kwargs)

    held.refresh = counted

    async def watch_a_while() -> None:
        task = asyncio.create_task(held.watch(0.001))
        while checks < 20:
            await asyncio.sleep(0.001)
        task.cancel()

    with caplog.at_level(logging.ERROR, logger="manga_app.read_models.held"):
        asyncio.run(watch_a_while())
    failures = [record.getMessage() for record in caplog.records]
    assert checks >= 20 and len(failures) == 1 and "genres.json" in failures[0], failures
