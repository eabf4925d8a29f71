"""Every change this site makes to Reflex itself, in one place.
tests/unit/test_reflex_patches.py fails when a Reflex upgrade moves what
these rely on; nothing else in the site patches the framework.

- The document head: no color-mode script (`leave_out_color_mode_script`);
  the site's stylesheet linked by the site's own component, so the reader's
  first frame waits for no stylesheet but a small one of its own, inside
  the HTML (`own_stylesheet_link`).
- Event handling: a hook before every event and on every socket.io
  connect, event and disconnect (`install`; the policy itself is web/socket_guard.py).
- State in Redis: an event cancelled while its visitor's lock is being
  granted gives the lock back (`_lock_given_back_if_cancelled`); the states
  every event reads come in the event's one read (`_with_every_event_states`);
  only the keyspace events Reflex waits on are published (`_lock_release_events_only`).
- The built page: rendered pages start the app, and fetch the images they
  preload at low priority, after their first frame
  (`start_after_first_paint`), the one rewrite of Reflex's build output.
"""

from __future__ import annotations

import asyncio
import functools
import html as html_text
import inspect
import json
import re

import reflex as rx
import reflex.compiler.utils
import reflex.utils.misc
from reflex.app import App, EventNamespace
from reflex.istate.manager.redis import StateManagerRedis
from reflex_components_core.el.elements.metadata import Head, Link

from manga_app.ui.site_styles import site_stylesheet
from manga_app.web import bounded_logs, socket_guard

_MARK = "_manga_guarded"


# ---- the document head ---------------------------------------------------
# Reflex 0.10 always puts a script first in every page's head
# (reflex.utils.misc.preload_color_theme, looked up each time the document
# root is compiled) that reads a saved color mode from localStorage before
# React starts. The site has one look (default_color_mode="light", no
# toggle, no stylesheet reads the class), yet a fresh page's first use of
# localStorage costs about 3.5 ms of main thread before the first frame, on
# every page. Reflex has no setting for it.


def _no_color_mode_script(default_color_mode: str = "system") -> rx.Component:
    """Stands in for reflex.utils.misc.preload_color_theme: renders nothing."""
    return rx.fragment()


def leave_out_color_mode_script() -> None:
    """Before the app is compiled (manga_app.manga_app calls it on import)."""
    reflex.utils.misc.preload_color_theme = _no_color_mode_script


# Reflex's document head links the site's stylesheet (every file of
# App.stylesheets in one, about 130 KB), and preloads it, on every page, and
# every page's first frame waits for it. The reader's first frame is one
# image and a few bars: it waited for the whole site's styles (reader LCP
# 1.6-1.9x a static page showing the same image). The link is the site's own
# component instead (ui/site_styles.py): the same link on every
# page but the reader's, which draws with its own small stylesheet (in its
# HTML) and links the site's once the app has started. Reflex has no setting
# for it.

_GLOBAL_STYLES = "reflexGlobalStyles"


def _global_stylesheet(component: object) -> bool:
    return isinstance(component, Link) and str(getattr(component, "href", "")) == _GLOBAL_STYLES


def _own_stylesheet(create_document_root):
    @functools.wraps(create_document_root)
    def create(*args, **kwargs):
        root = create_document_root(*args, **kwargs)
        head = next((child for child in root.children if isinstance(child, Head)), None)
        links = [child for child in head.children if _global_stylesheet(child)] if head is not None else []
        stylesheet = next((link for link in links if str(link.rel) == '"stylesheet"'), None)
        if stylesheet is None:
            return root  # a document this does not know: left as built (the test fails)
        head.children = [
            site_stylesheet(stylesheet.href) if child is stylesheet else child
            for child in head.children
            if child is stylesheet or not any(child is link for link in links)
        ]
        return root

    setattr(create, _MARK, True)
    return create


def own_stylesheet_link() -> None:
    """Before the app is compiled (manga_app.manga_app calls it on import)."""
    if not getattr(reflex.compiler.utils.create_document_root, _MARK, False):
        reflex.compiler.utils.create_document_root = _own_stylesheet(reflex.compiler.utils.create_document_root)


# ---- event handling ------------------------------------------------------


def install() -> None:
    """Wrap Reflex's event entry points once per process (idempotent):
    App._preprocess (run by the event processor under the state lock, before
    every event), EventNamespace.on_connect, on_event and on_disconnect (socket.io)."""
    bounded_logs.install()
    if getattr(App._preprocess, _MARK, False):
        return
    _wrap(App, "_preprocess", socket_guard.before_event)
    _wrap(EventNamespace, "on_event", socket_guard.on_event)
    _wrap(EventNamespace, "on_connect", socket_guard.on_connect)
    _wrap(EventNamespace, "on_disconnect", socket_guard.on_disconnect)
    from manga_app.accounts.auth_state import AuthState  # (the app's states import this module's users)

    StateManagerRedis._try_get_lock = _lock_given_back_if_cancelled(StateManagerRedis._try_get_lock)
    StateManagerRedis._get_required_state_classes = _with_every_event_states(
        StateManagerRedis._get_required_state_classes, (AuthState,))
    StateManagerRedis._enable_keyspace_notifications = _lock_release_events_only(
        StateManagerRedis._enable_keyspace_notifications)


def _wrap(cls: type, name: str, wrapper) -> None:
    original = getattr(cls, name)
    if inspect.iscoroutinefunction(original):  # socket.io awaits only coroutine functions

        async def method(self, *args, **kwargs):
            return await wrapper(self, original, *args, **kwargs)

    else:

        def method(self, *args, **kwargs):
            return wrapper(self, original, *args, **kwargs)

    functools.update_wrapper(method, original)
    setattr(method, _MARK, True)
    setattr(cls, name, method)


# ---- state in Redis --------------------------------------------------------
# Every event takes its visitor's lock in Redis (SET NX with a 10 s expiry).
# Reflex cancels an event still running when a newer navigation supersedes
# its on_load chain; cancelled while its SET NX was on its way, the event
# never learns that Redis granted the lock, nobody releases it, and the
# visitor's next events wait for it to expire: 10 s stalls under load with
# several workers (tests/unit/web/test_state_lock.py). The SET NX goes on
# after a cancellation, and what it was granted is given back at once.

_RELEASE_IF_OURS = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0"
_GIVING_BACK: set[asyncio.Task] = set()


def _lock_given_back_if_cancelled(try_get_lock):
    @functools.wraps(try_get_lock)
    async def take(self: StateManagerRedis, lock_key: bytes, lock_id: bytes):
        asking = asyncio.ensure_future(try_get_lock(self, lock_key, lock_id))
        try:
            return await asyncio.shield(asking)
        except asyncio.CancelledError:
            asking.add_done_callback(functools.partial(_give_back, self, lock_key, lock_id))
            raise

    setattr(take, _MARK, True)
    return take


def _give_back(manager: StateManagerRedis, lock_key: bytes, lock_id: bytes, asking: asyncio.Future) -> None:
    if asking.cancelled() or asking.exception() is not None or not asking.result():
        return

    async def release() -> None:
        await manager.redis.eval(_RELEASE_IF_OURS, 1, lock_key, lock_id)
        manager._notify_next_waiter(lock_key)  # as Reflex after its own release

    task = asyncio.ensure_future(release())
    _GIVING_BACK.add(task)
    task.add_done_callback(_GIVING_BACK.discard)


# Before every event the session guard (accounts/session_guard.py) reads
# AuthState. Reflex reads from Redis only the event's own state, its parents
# and the states its computed vars touch (one MGET), then one more MGET for
# each other state asked for: AuthState cost a second round trip and ~11% of
# a worker's CPU on every event. It comes with the first read instead.


def _with_every_event_states(get_required, every_event: tuple[type, ...]):
    @functools.wraps(get_required)
    def required(self, target_state_cls, subclasses=False, required_state_classes=None):
        found = get_required(self, target_state_cls, subclasses, required_state_classes)
        if required_state_classes is None:  # the outer call: what one read fetches
            for state_cls in every_event:
                # with its parents and the states its changes can make dirty, as Reflex would fetch it
                get_required(self, state_cls, False, found)
        return found

    setattr(required, _MARK, True)
    return required


# Reflex turns on keyspace events for string and set writes too ("K$sgxe"),
# needed only by its opportunistic lock (off here): every worker was sent
# and parsed a message for each lock taken as well as each lock released.


def _lock_release_events_only(enable):
    @functools.wraps(enable)
    async def enable_release_events(self: StateManagerRedis) -> None:
        if not self._oplock_enabled:
            self._redis_notify_keyspace_events = "Kgxe"  # del, expired, evicted
        await enable(self)

    setattr(enable_release_events, _MARK, True)
    return enable_release_events


# ---- the built page ------------------------------------------------------
# React Router's build puts the app's module preloads and its start module
# in every page; on a phone on a slow network those few hundred kilobytes
# would share the connection and the main thread with a page that is
# already all there in the HTML. Without this, Lighthouse mobile fell from
# 97-99 to 81-89 (LCP 2.8-3.1 s).
#
# Images the page preloads at low priority (the reader's second page, which
# React hoists into the head) wait for its high-priority images: asked for
# with the HTML, the second page's 150 KB shared the link with the first
# page's 50 KB (150 ms, 1.6 Mbit/s: first page on screen at 960 ms, 660 ms
# once they wait), and its response came in beside the first page's.

_MODULE_PRELOAD = re.compile(r'<link rel="modulepreload" href="([^"]+)"/?>')
_LOW_IMAGE_PRELOAD = re.compile(r'<link rel="preload" as="image" href="([^"]+)" fetchPriority="low"/?>')
# React Router's inline module that starts the app, and its static imports.
_APP_START = re.compile(r'(<script type="module"[^>]*>)(.*?)(</script>)', re.DOTALL)
_STATIC_IMPORT = re.compile(r'^import (?:\* as (\w+) from )?("[^"\\]+");[ \t]*$', re.MULTILINE)
_ANY_STATIC_IMPORT = re.compile(r"^\s*import\s*[^(\s]", re.MULTILINE)
# What the app waits for: the page's high-priority images (the reader's
# first page) loaded, so its scripts do not share the connection and the
# main thread with them (not image.decode(): the page's own paint decodes
# them again), then the frame that shows them on screen. Where the browser
# reports the page's largest paint and it is one of them, that report: it
# comes once the frame is presented, and the image's decoding, drawing and
# presenting come after the frame's main-thread work (the app's fetching
# and compiling beside them made the reader's LCP 1.2x slower). Else, or
# after LARGEST_PAINT_WAIT_MS, the frame after the one they arrived in. At
# once in a hidden tab, which paints none.
LARGEST_PAINT_WAIT_MS = 250
_FIRST_IMAGES = '[...document.querySelectorAll("img[fetchpriority=high]")]'
_LOADED = (
    "Promise.all(images.map((image) => image.complete || new Promise((done) => {"
    ' image.addEventListener("load", done); image.addEventListener("error", done); })))'
)
PAINT_GATE = (
    'new Promise((go) => { if (document.visibilityState === "hidden") return go();'
    f" const images = {_FIRST_IMAGES};"
    f" {_LOADED}.then(() => {{"
    " const reported = images.length > 0"
    ' && (PerformanceObserver.supportedEntryTypes || []).includes("largest-contentful-paint");'
    f" requestAnimationFrame(() => setTimeout(go, reported ? {LARGEST_PAINT_WAIT_MS} : 0));"
    " if (reported) new PerformanceObserver((list, observer) => {"
    " if (list.getEntries().some((entry) => images.includes(entry.element))) { observer.disconnect(); go(); } })"
    '.observe({ type: "largest-contentful-paint", buffered: true }); }); })'
)


def _script_json(values: list[str]) -> str:
    """Attribute values (HTML-escaped) as a JSON array inside a <script>."""
    return json.dumps([html_text.unescape(value) for value in values]).replace("</", "<\\/")


def _gated_start(body: str, preloads: list[str], images: list[str]) -> str | None:
    """The app's start module, waiting for PAINT_GATE before it loads
    anything: its static imports become awaited dynamic ones (same order),
    and the module preloads left out of the head are added at that moment;
    the low-priority image preloads left out of the head are added once the
    high-priority images have loaded. None when the module has an import
    this does not know how to rewrite."""

    def dynamic(found: re.Match) -> str:
        alias, source = found.group(1), found.group(2)
        return f"const {alias} = await import({source});" if alias else f"await import({source});"

    rewritten = _STATIC_IMPORT.sub(dynamic, body)
    if _ANY_STATIC_IMPORT.search(rewritten):
        return None
    hrefs = json.dumps(preloads)
    # Asked for once the high-priority ones have loaded, ahead of the gate's
    # frame: on a slow link they come right after the first page, before
    # the app's scripts (a turn 3 s after opening found the second page
    # still loading when it was asked for with the scripts: 650 ms to draw).
    later_images = (
        f"{{ const images = {_FIRST_IMAGES}; {_LOADED}.then(() => {{"
        f" for (const href of {_script_json(images)}) {{ const link = document.createElement(\"link\");"
        ' link.rel = "preload"; link.as = "image"; link.fetchPriority = "low"; link.href = href;'
        " document.head.appendChild(link); } }); }\n"
        if images
        else ""
    )
    return (
        later_images
        + f"await ({PAINT_GATE});\n"
        f"for (const href of {hrefs}) {{ const link = document.createElement(\"link\"); "
        "link.rel = \"modulepreload\"; link.href = href; document.head.appendChild(link); }\n"
        + rewritten
    )


def start_after_first_paint(html: str) -> str:
    """The page with the app's JavaScript, and the images it preloads at
    low priority, neither fetched nor run before its first frame: the page
    shows sooner on a slow phone; the app starts one frame later. A start
    module this does not know is left as built (and the test named above
    fails)."""
    preloads = _MODULE_PRELOAD.findall(html)
    images = _LOW_IMAGE_PRELOAD.findall(html)
    start = _APP_START.search(html)
    gated = None if start is None else _gated_start(start.group(2), preloads, images)
    if gated is None:
        return html
    html = html[: start.start(2)] + gated + html[start.end(2) :]
    return _LOW_IMAGE_PRELOAD.sub("", _MODULE_PRELOAD.sub("", html))
