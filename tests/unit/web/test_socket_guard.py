"""The pure parts of the event checks (platform/socket_guard.py): rate limits
per key and log lines bounded to 200 characters of any payload. Where
Reflex calls them: tests/unit/platform_wing/test_patches.py."""

from __future__ import annotations

import logging

from manga_app.web import bounded_logs
from manga_app.core.rate_limit import Notices, RateLimiter


def test_a_bucket_allows_its_burst_then_its_rate():
    limiter = RateLimiter(rate=10, burst=5)
    assert [limiter.allow("a", 0.0) for _ in range(6)] == [True] * 5 + [False]
    assert limiter.allow("b", 0.0), "keys have their own buckets"
    assert not limiter.allow("a", 0.05) and limiter.allow("a", 0.15)
    assert sum(limiter.allow("a", 100.0) for _ in range(50)) == 5, "never more than the burst"


def test_the_oldest_key_is_forgotten_past_the_limit():
    limiter = RateLimiter(rate=1, burst=1, max_keys=2)
    limiter.allow("a", 0.0), limiter.allow("b", 0.0), limiter.allow("c", 0.0)
    assert limiter.allow("a", 0.0), "a was evicted and starts afresh"


def test_one_notice_per_interval():
    notices = Notices(10.0)
    assert [notices.due("s", t) for t in (0.0, 1.0, 9.9, 10.0)] == [True, False, False, True]


def test_no_log_line_carries_more_than_200_characters_of_a_payload(caplog):
    bounded_logs.install()
    payload = "x" * 1_000_000
    logger = logging.getLogger("reflex.app")
    with caplog.at_level(logging.INFO):
        logger.warning("Received event data as a string. Event data: %s", payload)
        try:
            raise ValueError(f"Failed to deserialize event data: {payload}")
        except ValueError:
            logger.exception("Event failed")
    text = caplog.text
    assert "x" * 201 not in text
    assert "more characters" in text and "Failed to deserialize event data" in text
