"""Invented demo library: ~40 original Japanese series as CBZ + ComicInfo.xml.

``make run`` generates it on first start and feeds it to the real importer,
so a newcomer lands on a living site (covers, genres, statuses, webtoons,
double-page spreads, and chapters published "たった今" through "2年以上前").
Everything here is a pure generator: no web framework, no database.

Entry points: :func:`generate_demo_library` and ``python -m manga_app.demo``.
"""

from manga_app.demo.drawing import CJKFontNotFoundError
from manga_app.demo.generator import generate_demo_library
from manga_app.demo.plan import plan_library

__all__ = ["CJKFontNotFoundError", "generate_demo_library", "plan_library"]
