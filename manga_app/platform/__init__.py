"""Every change this site makes to its frameworks (Reflex, engine.io, socket.io,
uvicorn, React Router's build), in one place: the platform wing.
tests/unit/platform_wing/test_patches.py fails when a Reflex upgrade moves what
these rely on; nothing else in the site patches the framework. One module
per part: document_head, redis_lock, built_page; the event hooks here.

- The document head: no color-mode script (`leave_out_color_mode_script`);
  the site's stylesheet linked by the site's own component, so the reader's
  first frame waits for no stylesheet but a small one of its own, inside
  the HTML, and React Router's scroll restoration by the site's own
  component, whose script on the reader runs once the page is parsed
  (`own_stylesheet_link`).
- The same app compiles to the same files: the browser-storage fields of
  utils/context.jsx in a stable order, so a save under `make dev` does not
  rewrite that module (`client_storage_in_a_stable_order`, platform/stable_compile.py).
- Event handling: a hook before every event and on every socket.io
  connect, event and disconnect (`install`; the policy itself is platform/socket_guard.py);
  a page load's first hydrate leaves the server's seed of the page's content
  states standing (platform/page_content.py);
  every event the browser numbers is answered with its number once handled
  (platform/event_answers.py).
- Every state's sets of changes held only while not empty (`dirty_sets`).
- State in memory: kept while its tab is connected, dropped one TTL after
  (`kept_while_open`, platform/state_lifetime.py); a visitor's tree holds
  only the states their events use, each made when first looked up
  (platform/lazy_substates.py).
- State in Redis: an event cancelled while its visitor's lock is being
  granted gives the lock back (`lock_given_back_if_cancelled`); the states
  every event reads come in the event's one read (`with_every_event_states`);
  only the keyspace events Reflex waits on are published (`lock_release_events_only`);
  a waiter whose lock's release was never announced to it looks again within
  a quarter second, not at the lock's expiry (`waiters_looked_at_again`);
  Reflex's Redis client waits out a Redis that stops and comes back
  (`waits_for_redis`, platform/redis_outage.py).
- The built page: rendered pages start the app after their first frame
  (`start_after_first_paint`), the one rewrite of Reflex's build output.
- A browser's null error is reported and logged, not answered with
  Reflex's reload script: that script is eval'd text, which the site's CSP
  refuses, so it only added an EvalError (`install`, FrontendEventExceptionState).

The wing: every change the site makes to its frameworks is in this package
(an architecture rule: nothing outside it uses a private name of Reflex,
engine.io, socket.io, uvicorn or Starlette), and the app refuses to start on
other versions than the pinned ones (`versions.py`). Each module ends with
what it overrides, why, and what upstream change would let it go. One
change is outside it because Reflex copies browser modules only from
assets/: assets/js/page_state.jsx writes the server's seed into Reflex's
generated `initialState` ($/utils/context), which states.py and
renderer.mjs rely on.

Overrides: App._preprocess; EventNamespace.on_connect, on_event,
on_disconnect; EventProcessor.enqueue; StateManagerMemory._purge_token and
_get_or_create_state; StateManagerRedis.
_try_get_lock, _get_required_state_classes, _enable_keyspace_notifications,
_lock_waiter; prerequisites.get_redis; compiler.utils.compile_client_storage
(the wrappers are in the modules named above).
Why: Reflex 0.10 has no public hook at a socket.io connect, event or
disconnect, nor settings for what the state-manager wraps change.
Waits for: for App._preprocess, nothing: Reflex 0.10.1 already has
App.add_middleware with a preprocess step (reflex/app_mixins/middleware.py,
whose updates upstream now routes to the client: reflex-dev/reflex#6644,
merged), so socket_guard.before_event can become a Middleware; the socket.io
hooks and the rest, per module.
"""

from __future__ import annotations

import functools
import inspect

from reflex.app import App, EventNamespace
from reflex.istate.manager.memory import StateManagerMemory
from reflex.istate.manager.redis import StateManagerRedis
from reflex.state import FrontendEventExceptionState
from reflex.utils import prerequisites
from reflex_base.event.processor.event_processor import EventProcessor

from manga_app.platform import dirty_sets, lazy_substates
from manga_app.platform.built_page import PAINT_GATE, start_after_first_paint
from manga_app.platform.document_head import leave_out_color_mode_script, own_stylesheet_link
from manga_app.platform.marks import MARK
from manga_app.platform.redis_lock import (
    lock_given_back_if_cancelled,
    lock_release_events_only,
    waiters_looked_at_again,
    with_every_event_states,
)
from manga_app.platform import event_answers, socket_guard, state_lifetime  # noqa: I001
from manga_app.platform.redis_outage import waits_for_redis
from manga_app.platform.stable_compile import client_storage_in_a_stable_order

__all__ = ["PAINT_GATE", "client_storage_in_a_stable_order", "install", "leave_out_color_mode_script",
           "own_stylesheet_link", "redis_waits_out_outages", "start_after_first_paint"]


# ---- event handling ------------------------------------------------------


def install() -> None:
    """Wrap Reflex's event entry points once per process (idempotent):
    App._preprocess (run by the event processor under the state lock, before
    every event), EventNamespace.on_connect, on_event and on_disconnect (socket.io)."""
    dirty_sets.install()
    lazy_substates.install()
    FrontendEventExceptionState.auto_reload_on_errors = []  # a public class setting, no wrapper
    if getattr(App._preprocess, MARK, False):
        return
    _wrap(App, "_preprocess", socket_guard.before_event)
    _wrap(EventNamespace, "on_event", socket_guard.on_event)
    _wrap(EventProcessor, "enqueue", event_answers.enqueue)
    _wrap(EventNamespace, "on_connect", socket_guard.on_connect)
    _wrap(EventNamespace, "on_disconnect", socket_guard.on_disconnect)
    from manga_app.visitor.auth_state import AuthState  # (the app's states import this module's users)

    StateManagerMemory._purge_token = state_lifetime.kept_while_open(StateManagerMemory._purge_token)
    StateManagerRedis._try_get_lock = lock_given_back_if_cancelled(StateManagerRedis._try_get_lock)
    StateManagerRedis._get_required_state_classes = with_every_event_states(
        StateManagerRedis._get_required_state_classes, (AuthState,))
    StateManagerRedis._enable_keyspace_notifications = lock_release_events_only(
        StateManagerRedis._enable_keyspace_notifications)
    StateManagerRedis._lock_waiter = waiters_looked_at_again(StateManagerRedis._lock_waiter)


def redis_waits_out_outages() -> None:
    """Before the app is made (it makes its state manager's Redis client then):
    Reflex's Redis clients wait out an outage (platform/redis_outage.py). Idempotent."""
    if not getattr(prerequisites.get_redis, MARK, False):
        prerequisites.get_redis = waits_for_redis(prerequisites.get_redis)


def _wrap(cls: type, name: str, wrapper) -> None:
    original = getattr(cls, name)
    if inspect.iscoroutinefunction(original):  # socket.io awaits only coroutine functions

        async def method(self, *args, **kwargs):
            return await wrapper(self, original, *args, **kwargs)

    else:

        def method(self, *args, **kwargs):
            return wrapper(self, original, *args, **kwargs)

    functools.update_wrapper(method, original)
    setattr(method, MARK, True)
    setattr(cls, name, method)
