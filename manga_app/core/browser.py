"""Names the server and the browser's scripts share: cookies, storage keys
and their lifetime. Declared here once; assets/js/shared.js is generated
from this module (`python -m manga_app.core.browser` writes it),
and a unit test fails when that file is not what this module makes."""

from __future__ import annotations

import json
from pathlib import Path

# This browser's random id (reader/rules.py checks its form; assets/js/visitor.js makes it).
VISITOR_COOKIE = "manga_visitor"
# Cookies the site sets itself last as long as a browser keeps any (400 days).
COOKIE_SECONDS = 400 * 24 * 3600
# The reader's layout, which the server draws (reader/rules.py reader_settings).
SETTINGS_COOKIE = "manga_reader_layout"
# The rest of the reader's settings (per-series directions), kept in the browser only.
SETTINGS_STORAGE_KEY = "manga_reader_settings"
# Where the chapter read last reopens, so the first HTML can preload its page (rules.first_page_hint).
FIRST_PAGE_COOKIE = "manga_reader_first"
# The position in every chapter opened (assets/js/reader/positions.js).
POSITIONS_STORAGE_KEY = "manga_reader_positions"
# The reading history (visitor/reading_state.py; its format is accounts/reading.py).
HISTORY_STORAGE_KEY = "manga_reading_history"
# Whose library the browser holds (visitor/library_state.py LibraryState.owner).
LIBRARY_OWNER_STORAGE_KEY = "manga_library_owner"
# Each event a tab sends carries its number in this field of the frame; the
# server answers it by setting this ref (platform/event_answers.py, assets/js/delivery.js).
EVENT_NUMBER_FIELD = "manga_sent"
EVENT_ANSWER_REF = "manga_answered"

SHARED = (
    "VISITOR_COOKIE",
    "COOKIE_SECONDS",
    "SETTINGS_COOKIE",
    "SETTINGS_STORAGE_KEY",
    "FIRST_PAGE_COOKIE",
    "POSITIONS_STORAGE_KEY",
    "HISTORY_STORAGE_KEY",
    "LIBRARY_OWNER_STORAGE_KEY",
    "EVENT_NUMBER_FIELD",
    "EVENT_ANSWER_REF",
)
JS_PATH = Path(__file__).resolve().parents[2] / "assets" / "js" / "shared.js"


def javascript() -> str:
    """assets/js/shared.js: each shared name as an exported constant."""
    lines = [
        "// Generated from manga_app/core/browser.py by `python -m manga_app.core.browser`:",
        "// do not edit; change the Python module and run that command again.",
        "",
    ]
    lines += [f"export const {name} = {json.dumps(globals()[name], ensure_ascii=False)};" for name in SHARED]
    return "\n".join(lines) + "\n"


def main() -> None:
    JS_PATH.write_text(javascript(), encoding="utf-8")
    print(f"wrote {JS_PATH}")


if __name__ == "__main__":
    main()
