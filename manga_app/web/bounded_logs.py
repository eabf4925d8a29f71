"""No log line carries more than MAX_LOGGED characters of anything a client
sent: every log record's message, and every line of its traceback, is cut
to that length when the record is made (so no handler added later, by
Reflex or the server, can print the whole of a hostile payload)."""

from __future__ import annotations

import logging
import traceback

MAX_LOGGED = 200
_MARK = "_manga_bounded"


def cut(text: str, limit: int = MAX_LOGGED) -> str:
    return text if len(text) <= limit else f"{text[:limit]}… [{len(text) - limit} more characters]"


def _cut_lines(text: str) -> str:
    return "\n".join(cut(line) for line in text.splitlines())


def install() -> None:
    """Wrap the process's log record factory once (idempotent)."""
    factory = logging.getLogRecordFactory()
    if getattr(factory, _MARK, False):
        return

    def bounded(*args, **kwargs) -> logging.LogRecord:
        record = factory(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a broken format string is logged as written
            message = str(record.msg)
        if len(message) > MAX_LOGGED or "\n" in message:
            record.msg, record.args = _cut_lines(message), ()
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = _cut_lines("".join(traceback.format_exception(*record.exc_info)).rstrip())
        return record

    setattr(bounded, _MARK, True)
    logging.setLogRecordFactory(bounded)
