"""Cache-Control of the pages: every page is revalidated; pages that show a
visitor's own things (library, history, notifications, account, console)
are never stored by a browser or a shared cache."""

from __future__ import annotations

import pytest

from manga_app.core.pages import PageKind
from manga_app.web.pages import cache_headers

PERSONAL = {PageKind.LIBRARY, PageKind.HISTORY, PageKind.NOTIFICATIONS, PageKind.ACCOUNT,
            PageKind.ADMIN, PageKind.ADMIN_SERIES, PageKind.ADMIN_UPLOAD, PageKind.ADMIN_JOBS,
            PageKind.ADMIN_AUDIT}


@pytest.mark.parametrize("kind", sorted(PERSONAL, key=lambda kind: kind.name))
def test_personal_pages_are_never_stored(kind):
    assert cache_headers(kind)["Cache-Control"] == "no-store"


@pytest.mark.parametrize("kind", sorted(set(PageKind) - PERSONAL, key=lambda kind: kind.name))
def test_public_pages_are_revalidated(kind):
    assert cache_headers(kind)["Cache-Control"] == "no-cache"


def test_a_404_is_revalidated():
    assert cache_headers(None)["Cache-Control"] == "no-cache"
