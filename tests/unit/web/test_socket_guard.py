"""The Reflex patches of web/socket_guard.py still reach what they rely on
(this fails when a Reflex upgrade moves it), and their pure parts: rate
limits per key and log lines bounded to 200 characters of any payload."""

from __future__ import annotations

import inspect
import logging

import socketio
from reflex.app import App, EventNamespace
from reflex_base import constants
from reflex_base.event.processor.base_state_processor import BaseStateEventProcessor

from manga_app.web import bounded_logs, socket_guard
from manga_app.web.rate_limit import Notices, RateLimiter


def test_the_patches_sit_where_reflex_calls_them():
    socket_guard.install()
    socket_guard.install()  # idempotent: one wrapper, not two
    for cls, name in ((App, "_preprocess"), (EventNamespace, "on_event"), (EventNamespace, "on_disconnect")):
        method = getattr(cls, name)
        assert getattr(method, "_manga_guarded", False), name
        assert not getattr(method.__wrapped__, "_manga_guarded", False), f"{name} wrapped twice"
    # socket.io awaits coroutine handlers named on_<event>; the browser sends "event".
    assert inspect.iscoroutinefunction(EventNamespace.on_event) and constants.SocketEvent.EVENT == "event"
    assert "on_event" in inspect.getsource(socketio.AsyncNamespace.trigger_event).replace("'on_' + (event", "on_event")
    # The event processor runs the app's _preprocess under the state lock, with router data set first.
    source = inspect.getsource(BaseStateEventProcessor._execute_event)
    assert source.index("state.router_data = merged_router_data") < source.index("self.middleware._preprocess(state, event)")
    # What the limits read from the namespace.
    namespace_source = inspect.getsource(EventNamespace)
    assert "self._static_router_data[sid] = self._build_static_router_data(sid, environ)" in namespace_source
    assert "constants.RouteVar.CLIENT_IP: client_ip" in namespace_source
    assert "def sid_to_token" in namespace_source


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
