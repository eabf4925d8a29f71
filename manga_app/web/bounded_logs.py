"""No log line carries more than MAX_LOGGED characters of anything a client
sent, nor a line break or control character of it: every log record's
message is made one line (controls written as escapes, core/text.py) and
cut to that length when the record is made, and its traceback's lines are
cut and escaped the same way, so no handler added later, by Reflex or the
server, can print a hostile payload or a line a client forged. The front
end's exception reports (Reflex's frontend_exception_handler, frontend_exception
below) are logged once per identical report and window."""

from __future__ import annotations

import hashlib
import logging
import threading
import time
import traceback

from manga_app.core.text import bounded

MAX_LOGGED = 200
MAX_TRACEBACK_LINES = 60
_MARK = "_manga_bounded"
logger = logging.getLogger(__name__)


def _traceback(exc_info) -> str:
    kind, value, trace = exc_info
    lines = "".join(traceback.format_tb(trace)).rstrip().splitlines()[-MAX_TRACEBACK_LINES:]
    ending = f"{kind.__name__}: {bounded(str(value), MAX_LOGGED)}" if str(value) else kind.__name__
    return "\n".join([*(bounded(line, MAX_LOGGED) for line in ["Traceback (most recent call last):", *lines]), ending])


def install() -> None:
    """Wrap the process's log record factory once (idempotent)."""
    factory = logging.getLogRecordFactory()
    if getattr(factory, _MARK, False):
        return

    def bounded_record(*args, **kwargs) -> logging.LogRecord:
        record = factory(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a broken format string is logged as written
            message = str(record.msg)
        line = bounded(message.strip(), MAX_LOGGED)
        if line != message:
            record.msg, record.args = line, ()
        if record.exc_info and record.exc_info[0] is not None:
            record.exc_text = _traceback(record.exc_info)
        return record

    setattr(bounded_record, _MARK, True)
    logging.setLogRecordFactory(bounded_record)


class Repeats:
    """Which reports were logged in the current window (a bounded set, reset each window)."""

    def __init__(self, window: float = 60.0, most: int = 1000) -> None:
        self.window, self.most = window, most
        self._seen: dict[str, int] = {}
        self._since = time.monotonic()
        self._lock = threading.Lock()

    def first(self, text: str, now: float | None = None) -> tuple[bool, int]:
        """(whether `text` is new in this window, how many repeats the last window dropped in all)."""
        now = time.monotonic() if now is None else now
        key = hashlib.blake2b(text.encode(errors="replace"), digest_size=12).hexdigest()
        with self._lock:
            dropped = 0
            if now - self._since >= self.window or len(self._seen) >= self.most:
                dropped = sum(self._seen.values())
                self._seen, self._since = {}, now
            if key in self._seen:
                self._seen[key] += 1
                return False, 0
            self._seen[key] = 0
            return True, dropped


FRONTEND_REPEATS = Repeats()


def frontend_exception(exception: Exception) -> None:
    """Reflex's frontend_exception_handler: the browser's report, one bounded
    line, once per identical report and minute (a client can send it at will)."""
    text = str(exception)
    new, dropped = FRONTEND_REPEATS.first(text)
    if dropped:
        logger.warning("Front-end exception reports: %d repeats not logged in the last window", dropped)
    if new:
        logger.error("Front-end exception: %s", bounded(text, MAX_LOGGED))
