"""manga_app/platform/: every change the site makes to Reflex still
reaches what it relies on (these fail when a Reflex upgrade moves it), and
each does what it is for. tests/e2e/test_hydration.py checks that the real
build's start module is rewritten."""

from __future__ import annotations

import asyncio
import inspect
import re
from pathlib import Path

import reflex.compiler.utils
import reflex_base
import reflex.utils.misc
import socketio
from reflex.app import App, EventNamespace
from reflex.istate.manager.memory import StateManagerMemory
from reflex_base import constants
from reflex_base.event.processor.base_state_processor import BaseStateEventProcessor
from reflex_base.event.processor.event_processor import EventProcessor

from manga_app import platform
from manga_app.platform import socket_guard

# ---- the document head ------------------------------------------------------


def _document_code() -> str:
    root = reflex.compiler.utils.create_document_root(head_components=[], html_lang="ja", default_color_mode="light")
    return str(root.render())


def test_the_document_head_reads_no_saved_color_mode(monkeypatch):
    monkeypatch.setattr(reflex.utils.misc, "preload_color_theme", reflex.utils.misc.preload_color_theme)
    # Reflex's own document does (what this change takes away).
    assert "localStorage" in _document_code()
    platform.leave_out_color_mode_script()
    code = _document_code()
    assert "localStorage" not in code and "prefers-color-scheme" not in code
    # The rest of the document is still there.
    assert "utf-8" in code and "stylesheet" in code


def test_the_site_stylesheet_is_linked_by_the_sites_component(monkeypatch):
    built_in = reflex.compiler.utils.create_document_root
    monkeypatch.setattr(reflex.compiler.utils, "create_document_root", getattr(built_in, "__wrapped__", built_in))
    monkeypatch.setattr(reflex.compiler.utils, "is_prod_mode", lambda: True)
    # Reflex's own document links (and preloads) the site's stylesheet itself.
    code = _document_code()
    assert code.count("href:reflexGlobalStyles") == 2 and "SiteStylesheet" not in code
    platform.own_stylesheet_link()
    platform.own_stylesheet_link()  # idempotent
    code = _document_code()
    # The site's component links it, told the reader's path rule and where the seed says a page was found.
    assert code.count("reflexGlobalStyles") == 1
    assert "'foundField:\"found_rx_state_\"', 'foundState:\"reflex___state____state.manga_app___heads___state____head_state\"'," \
        " 'href:reflexGlobalStyles', 'readerPath:" in code
    assert "utf-8" in code and "Links" in code and "Scripts" in code
    imports = reflex.compiler.utils.create_document_root(head_components=[], html_lang="ja")._get_all_imports()
    assert "$/styles/__reflex_global_styles.css?url" in imports and "$/public/js/site_styles.jsx" in imports


def test_scroll_restoration_is_the_sites_component(monkeypatch):
    built_in = reflex.compiler.utils.create_document_root
    monkeypatch.setattr(reflex.compiler.utils, "create_document_root", getattr(built_in, "__wrapped__", built_in))
    # Reflex's own document body has React Router's, whose script holds the parser.
    code = _document_code()
    assert "'name': 'ScrollRestoration'" in code and "SiteScrollRestoration" not in code
    platform.own_stylesheet_link()
    code = _document_code()
    # The site's, told the reader's path rule, in the same place.
    assert "'name': 'ScrollRestoration'" not in code
    found = code.find("{'name': 'SiteScrollRestoration', 'props': ['readerPath:")
    assert found >= 0 and code.find("'children': []}, {'name': 'Scripts'", found) > found
    imports = reflex.compiler.utils.create_document_root(head_components=[], html_lang="ja")._get_all_imports()
    assert "$/public/js/scroll_restoration.jsx" in imports


# ---- the compiled app -------------------------------------------------------


def test_the_same_app_compiles_to_the_same_context_module(monkeypatch):
    """utils/context.jsx does not depend on the order Reflex finds the states
    in: a set of classes, whose order changes from one process to the next,
    and `make dev` compiles the app in a fresh process at every save."""
    from reflex.compiler import compiler
    from reflex.state import BaseState, State

    import manga_app.reader.state  # noqa: F401  (states with browser storage: the reader's settings,
    import manga_app.visitor.library_state  # noqa: F401  a visitor's follows)

    built_in = BaseState.__dict__["get_substates"].__func__

    def compiled(reverse: bool) -> str:
        def get_substates(cls):
            return sorted(built_in(cls), key=lambda state: state.get_full_name(), reverse=reverse)

        monkeypatch.setattr(BaseState, "get_substates", classmethod(get_substates))
        return compiler.compile_contexts(State, None)[1]

    patched = reflex.compiler.utils.compile_client_storage
    monkeypatch.setattr(reflex.compiler.utils, "compile_client_storage", getattr(patched, "__wrapped__", patched))
    # Reflex's own: the storage fields in the states' order.
    assert compiled(reverse=False) != compiled(reverse=True)
    platform.client_storage_in_a_stable_order()
    platform.client_storage_in_a_stable_order()  # idempotent
    assert compiled(reverse=False) == compiled(reverse=True)
    code = compiled(reverse=False)
    assert '"name": "manga_follows", "sync": true' in code and '"name": "manga_reader_layout"' in code


# ---- event handling ---------------------------------------------------------


def test_the_patches_sit_where_reflex_calls_them():
    platform.install()
    platform.install()  # idempotent: one wrapper, not two
    for cls, name in ((App, "_preprocess"), (EventNamespace, "on_connect"), (EventNamespace, "on_event"),
                      (EventNamespace, "on_disconnect"), (EventProcessor, "enqueue")):
        method = getattr(cls, name)
        assert getattr(method, "_manga_guarded", False), name
        assert not getattr(method.__wrapped__, "_manga_guarded", False), f"{name} wrapped twice"
    # socket.io awaits coroutine handlers named on_<event>; the browser sends "event".
    assert inspect.iscoroutinefunction(EventNamespace.on_event) and constants.SocketEvent.EVENT == "event"
    assert "on_event" in inspect.getsource(socketio.AsyncNamespace.trigger_event).replace("'on_' + (event", "on_event")
    # on_event queues the browser's event through the processor's enqueue, whose
    # future is done once its handler is (event_answers answers then); the
    # answer is Reflex's _set_value of a ref, which state.js applies.
    assert "await self.app.event_processor.enqueue(token, event)" in inspect.getsource(EventNamespace.on_event.__wrapped__)
    assert "future.set_result(result)" in inspect.getsource(EventProcessor._resolve_future)
    state_js = (Path(reflex_base.__file__).parent / ".templates/web/utils/state.js").read_text()
    assert 'event.name == "_set_value"' in state_js
    # assets/js/delivery.js numbers each event in Reflex's instrumentation hook,
    # called with the very object then sent, and sends again on its connect hook,
    # called before the connect handler sends what waited in the queue.
    sent = state_js.index("window.__reflex_otel?.onEventSend?.(routed_event);")
    assert sent < state_js.index('socket.emit("event", encodeFormDataArgs(routed_event));', sent)
    connected = state_js.index("window.__reflex_otel?.onSocketConnect?.();")
    assert connected < state_js.index("await processEvent(socket.current, navigate, params);", connected)
    assert "export const queueEvents = async (" in state_js and "event_queue.unshift(...normalized);" in state_js
    # The event processor runs the app's _preprocess under the state lock, with router data set first.
    source = inspect.getsource(BaseStateEventProcessor._execute_event)
    assert source.index("state.router_data = merged_router_data") < source.index("self.middleware._preprocess(state, event)")
    # What the limits read from the namespace.
    namespace_source = inspect.getsource(EventNamespace)
    assert "self._static_router_data[sid] = self._build_static_router_data(sid, environ)" in namespace_source
    assert "constants.RouteVar.CLIENT_IP: client_ip" in namespace_source
    assert "def sid_to_token" in namespace_source
    # The in-memory state expiry drops each state through _purge_token (kept while its tab is open),
    # its states keyed by the tab's token, which is what the namespace records per socket.
    assert StateManagerMemory._purge_token.__wrapped__ is not None
    assert "self._purge_token(token)" in inspect.getsource(StateManagerMemory._purge_expired_tokens)
    assert "def token_to_socket" not in namespace_source and "self._token_manager.token_to_socket" in namespace_source
    # A visitor's tree in memory is made where the manager reads and changes a state (lazy_substates), and a
    # state is looked up by name in its parent's `substates` (get_substate, which get_state goes through).
    import reflex.istate.manager.memory as memory
    from reflex.state import BaseState

    assert StateManagerMemory._get_or_create_state.__module__ == "manga_app.platform.lazy_substates"
    assert inspect.getsource(memory).count("._get_or_create_state(token)") == 2
    assert "if path[index] not in state.substates:" in inspect.getsource(BaseState.get_substate)


def test_a_page_loads_first_hydrate_leaves_the_servers_seed_of_its_content_standing():
    """The tab's tree still held the page it showed before; the page-content states go back to their defaults
    before Reflex's hydrate snapshots the tree (the per-visitor ones stay, and nothing is made for it)."""
    import uuid

    from reflex.istate.manager.token import BaseStateToken
    from reflex.state import State
    from reflex_base.event import Event

    from manga_app.pages.ranking.state import RankingState
    from manga_app.pages.title.state import TitleState
    from manga_app.platform import page_content
    from manga_app.visitor.reading_state import ReadingState

    hydrate = f"{State.get_full_name()}.{constants.CompileVars.HYDRATE_AND_LOAD}"
    # Reflex's hydrate snapshots the tree it is given, after _preprocess (test above), and a page load sends hashes.
    assert "hashes" in inspect.signature(State.hydrate_and_load.fn).parameters
    assert "delta = await _resolve_delta(self.dict())" in inspect.getsource(State.hydrate_and_load.fn)
    assert page_content.first_hydrate_of_a_page(Event(name=hydrate, payload={"hashes": ["a", "b"]}))
    assert not page_content.first_hydrate_of_a_page(Event(name=hydrate, payload={"vars": {}}))  # a reconnect
    assert not page_content.first_hydrate_of_a_page(Event(name=f"{TitleState.get_full_name()}.load",
                                                          payload={"hashes": ["a"]}))

    async def scenario() -> None:
        platform.install()
        manager = StateManagerMemory()
        token = BaseStateToken(ident=str(uuid.uuid4()), cls=TitleState)
        async with manager.modify_state(token) as root:
            title = await root.get_state(TitleState)
            title.slug, title.title, title.loaded = "shingeki", "進撃の巨人", True
            history = await root.get_state(ReadingState)
            history.history_json = '[{"slug": "shingeki"}]'
        async with manager.modify_state(token) as root:
            page_content.reset_page_content(root)
            title = await root.get_state(TitleState)
            assert (title.slug, title.title, title.loaded) == ("", "", False)
            assert (await root.get_state(ReadingState)).history_json == '[{"slug": "shingeki"}]'
            assert RankingState.get_name() not in dict(root.substates)  # never made for it
        await manager.close()

    asyncio.run(scenario())


def test_a_set_up_connection_keeps_only_what_reflex_reads_again():
    """socket.io keeps each websocket's environ while the tab is open;
    after connect, Reflex builds a connection's router data from its ASGI
    scope (on_event's fallback), never from the header copies."""
    from engineio.async_drivers.asgi import translate_request

    headers = [(b"host", b"localhost:3000"), (b"origin", b"http://localhost:3000"), (b"user-agent", b"Mozilla/5.0"),
               (b"x-forwarded-for", b"203.0.113.9"), (b"cookie", b"a=b")]
    scope = {"type": "websocket", "path": "/_event/", "query_string": b"EIO=4&transport=websocket&token=t",
             "headers": headers, "client": ("127.0.0.1", 5000)}

    async def receive():
        return {"type": "websocket.connect"}

    environ = asyncio.run(translate_request(scope, receive, None))
    namespace = EventNamespace.__new__(EventNamespace)
    before = namespace._build_static_router_data("sid", environ)
    assert "wsgi.input" in environ and "HTTP_USER_AGENT" in environ
    socket_guard.slim_environ(environ)
    assert "wsgi.input" not in environ and not [key for key in environ if key.startswith("HTTP_")]
    assert namespace._build_static_router_data("sid", environ) == before
    assert before[constants.RouteVar.HEADERS]["user-agent"] == "Mozilla/5.0"
    # Reflex reads the headers of the environ only in on_connect, before they go.
    source = inspect.getsource(EventNamespace)
    assert source.count('environ.get("HTTP_') == 1 and 'environ.get("HTTP_' in inspect.getsource(EventNamespace.on_connect.__wrapped__)


def test_a_frontend_null_error_is_logged_without_a_reload_script(monkeypatch):
    """Reflex answers a browser's null error with a reload written as script
    text, which it evals: the site's CSP refuses eval, so the answer only
    added an EvalError to the error. The wing turns that answer off; the
    error is still reported to the backend's handler."""
    from reflex.state import FrontendEventExceptionState

    platform.install()
    reported = []
    handler = FrontendEventExceptionState.handle_frontend_exception.fn
    app = type("App", (), {"frontend_exception_handler": staticmethod(reported.append)})()
    monkeypatch.setattr("reflex.state.RegistrationContext.get", lambda: type("C", (), {"app": app})())
    answers = list(handler(object.__new__(FrontendEventExceptionState),
                           "TypeError: Cannot read properties of null (reading 'getBoundingClientRect')", ""))
    assert answers == [] and len(reported) == 1


# ---- the built page ---------------------------------------------------------

CHARSET = '<meta charSet="utf-8"/>'
# React Router's start module, as the build writes it.
APP_START = (
    '<script type="module" async="">import "/assets/manifest-1.js";\n'
    'import * as route0 from "/assets/root-2.js";\n  \n'
    '  window.__reactRouterRouteModules = {"root":route0};\n\n'
    'import("/assets/entry.client-3.js");</script>'
)
STYLES = '<link href="/assets/styles-4.css" rel="stylesheet" type="text/css"/>'


def _page(start: str = APP_START) -> str:
    return (
        f'<!DOCTYPE html><html><head>{CHARSET}<link rel="modulepreload" href="/assets/root-2.js"/>{STYLES}</head>'
        f"<body><h1>page</h1>{start}</body></html>"
    )


def _head(html: str) -> str:
    return html[: html.index("</head>")]


def test_the_app_starts_after_the_gate_with_the_same_imports_in_the_same_order():
    html = platform.start_after_first_paint(_page())
    assert "modulepreload" not in _head(html)
    module = re.search(r"<script[^>]*>(.*?)</script>", html, re.DOTALL).group(1)
    lines = [line.strip() for line in module.splitlines() if line.strip()]
    assert lines[0] == f"await ({platform.PAINT_GATE});"
    # The module preloads left out of the head are asked for at that moment.
    assert '["/assets/root-2.js"]' in lines[1] and 'link.rel = "modulepreload"' in lines[1]
    assert lines[2:] == [
        'await import("/assets/manifest-1.js");',
        'const route0 = await import("/assets/root-2.js");',
        'window.__reactRouterRouteModules = {"root":route0};',
        'import("/assets/entry.client-3.js");',
    ]


def test_the_page_and_its_stylesheet_are_left_as_they_are():
    html = platform.start_after_first_paint(_page())
    assert STYLES in _head(html) and "<body><h1>page</h1><script" in html


def test_only_the_app_start_waits_for_the_gate():
    # The reader's scroll restoration is an inline module too, before it.
    scroll = '<script type="module">((key) => sessionStorage.getItem(key))("positions")</script>'
    html = platform.start_after_first_paint(_page(scroll + APP_START))
    assert scroll in html and html.count(platform.PAINT_GATE) == 1
    assert html.index(scroll) < html.index(platform.PAINT_GATE) < html.index('import("/assets/entry.client-3.js")')


def test_an_app_start_it_cannot_rewrite_is_left_as_built_with_its_preloads():
    odd = '<script type="module">import { a } from "/assets/a.js";\na();</script>'
    assert platform.start_after_first_paint(_page(odd)) == _page(odd)


# ---- state in Redis ---------------------------------------------------------


def test_the_redis_lock_is_still_taken_where_the_patch_wraps_it():
    from reflex.istate.manager.redis import StateManagerRedis

    original = inspect.unwrap(StateManagerRedis._try_get_lock)
    assert list(inspect.signature(original).parameters) == ["self", "lock_key", "lock_id"]
    # Reflex takes the lock only through it, and wakes this worker's waiters through this.
    assert "self._try_get_lock(lock_key, lock_id)" in inspect.getsource(StateManagerRedis._wait_lock)
    assert "nx=True" in inspect.getsource(original)
    assert callable(StateManagerRedis._notify_next_waiter)


def test_a_lock_s_waiters_are_still_registered_where_the_patch_looks_at_them():
    from reflex.istate.manager.redis import StateManagerRedis

    waits = inspect.getsource(StateManagerRedis._wait_lock)
    # Every wait goes through _lock_waiter (where the look-again task starts),
    # and sleeps on the event _notify_next_waiter sets, for the lock's expiry at most.
    assert "self._lock_waiter(lock_key) as lock_released_event" in waits
    assert "lock_released_event.wait()" in waits
    assert "self._lock_waiters" in inspect.getsource(inspect.unwrap(StateManagerRedis._lock_waiter))
    assert "event.set()" in inspect.getsource(StateManagerRedis._notify_next_waiter)


def test_reflex_waits_only_on_lock_release_events_without_its_opportunistic_lock():
    import redis.asyncio
    from reflex.istate.manager.redis import StateManagerRedis

    manager = StateManagerRedis(redis=redis.asyncio.Redis())
    # What the patch keeps published ("Kgxe": keyspace; del, expired, evicted) is what Reflex listens for.
    assert manager._redis_keyspace_lock_release_events == {b"del", b"expired", b"evicted"}
    assert not manager._oplock_enabled
    assert "self._redis_notify_keyspace_events" in inspect.getsource(inspect.unwrap(
        StateManagerRedis._enable_keyspace_notifications))


# ---- the states' sets of changes -------------------------------------------


def _visit(root) -> dict:
    """One event's changes on a visitor's state tree: the delta sent to the browser, then cleaned."""
    from manga_app.pages.title.state import TitleState

    title = root._get_state_from_cache(TitleState)
    title.slug, title.title = "shingeki", "進撃の巨人"
    title.title = "進撃の巨人 (新装版)"
    delta = asyncio.run(root._get_resolved_delta())
    root._clean()
    return delta


def _states_in(state) -> int:
    return 1 + sum(_states_in(substate) for substate in state.substates.values())


def test_a_visitors_states_hold_no_empty_sets_between_events_and_changes_still_reach_the_browser():
    import gc
    import tracemalloc

    from reflex.state import State

    from manga_app.pages.title.state import TitleState

    platform.install()
    root = State(_reflex_internal_init=True)
    delta = _visit(root)
    changed = delta[TitleState.get_full_name()]
    assert changed["title_rx_state_"] == "進撃の巨人 (新装版)" and changed["slug_rx_state_"] == "shingeki"
    assert TitleState.get_full_name() not in asyncio.run(root._get_resolved_delta()), "sent once, then clean"
    assert _visit(root)[TitleState.get_full_name()]["title_rx_state_"] == "進撃の巨人 (新装版)"

    # What 100 visitors' state trees hold between events, per state in the
    # tree (two empty sets per state were 8 KB for 19 states; the bound was
    # 6,000 bytes for those 19, and grows only with the pages' states).
    states = _states_in(root)
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    roots = [State(_reflex_internal_init=True) for _ in range(100)]
    for root in roots:
        _visit(root)
    gc.collect()
    per_visitor = (tracemalloc.get_traced_memory()[0] - before) / len(roots)
    tracemalloc.stop()
    assert per_visitor / states < 6_000 / 19, f"{per_visitor:.0f} bytes per visitor's state tree of {states} states"


def test_a_visitors_tree_in_memory_holds_the_states_they_used_and_sends_what_the_whole_tree_would():
    """Reflex's memory manager made all 35 states for every visitor; here only those their events use."""
    import uuid

    from reflex.istate.manager.token import BaseStateToken
    from reflex.state import State, _resolve_delta

    from manga_app.pages.home.state import HomeState
    from manga_app.pages.title.state import TitleState

    def open_title(title) -> None:
        title.slug, title.title = "shingeki", "進撃の巨人"

    async def scenario() -> None:
        platform.install()
        manager = StateManagerMemory()
        token = BaseStateToken(ident=str(uuid.uuid4()), cls=TitleState)
        async with manager.modify_state(token) as root:
            open_title(await root.get_state(TitleState))
            delta = await root._get_resolved_delta()
            snapshot = await _resolve_delta(root.dict())
        whole = State(_reflex_internal_init=True)  # every state made, as Reflex's manager made them
        open_title(await whole.get_state(TitleState))
        whole_delta = await whole._get_resolved_delta()
        whole_snapshot = await _resolve_delta(whole.dict())
        fresh = await _resolve_delta(State(_reflex_internal_init=True).dict())
        # The browser gets every change the whole tree sends, and the computed vars of the states this visit
        # made (the whole tree's hydrate snapshot carried them; the browser held only their compiled values).
        title_name = TitleState.get_full_name()
        assert {name: {var: delta[name][var] for var in vars_} for name, vars_ in whole_delta.items()} == whole_delta
        extra = {(name, var) for name, vars_ in delta.items() for var in vars_ if var not in whole_delta.get(name, {})}
        assert (title_name, "alias_parts_rx_state_") in extra
        computed = {(state.get_full_name(), var + "_rx_state_") for state in (State, TitleState)
                    for var, cvar in state.computed_vars.items() if not cvar._backend}
        assert extra <= computed and all(delta[name][var] == whole_snapshot[name][var] for name, var in extra)
        # The states this visit never used are left out of its tree, and the whole tree holds their defaults.
        left_out = set(whole_snapshot) - set(snapshot)
        assert len(whole_snapshot) >= 30 and len(left_out) >= len(whole_snapshot) - 5, sorted(snapshot)
        assert all(whole_snapshot[name] == fresh[name] for name in left_out)
        assert all(snapshot[name] == whole_snapshot[name] for name in snapshot)
        # A state first used by a later event is made with its defaults, and kept.
        async with manager.modify_state(token) as root:
            home = await root.get_state(HomeState)
            assert not home.loaded and home.latest == []
            home.loaded = True
        async with manager.modify_state(token) as root:
            assert (await root.get_state(HomeState)).loaded
            assert (await root.get_state(TitleState)).title == "進撃の巨人"
        await manager.close()

    asyncio.run(scenario())
