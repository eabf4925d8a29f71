"""A page's states as its on_load handlers leave them, computed on the server.

The same Python handlers the browser's hydrate runs are run here against a
fresh state tree, for a visitor the server knows nothing about (no browser
storage, not signed in) except the cookies a page names for it (the
reader's settings, say): the page as that visitor first sees it.
Per-visitor parts (who is signed in, follows, read marks) arrive with the
app. Browser storage itself is never part of the result: the browser
sends its own when the app connects.

Overrides: nothing is replaced; it builds a state tree outside an event
(lazy_substates.made: the states the handlers use, made as a visitor's
are), with _update_router_vars, _resolve_delta, _is_client_storage and
Var._js_expr/_decode.
Why: every page's first HTML rendered on the server with the states its
on_load leaves (content before JavaScript).
Waits for: Reflex renders pages at build time only, for static routes
(reflex-dev/reflex#5252, closed: prerendering per #4984); a public way to
run on_load for a request and serialize the result.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from typing import Any
from urllib.parse import parse_qsl, unquote

import orjson
import reflex as rx
from reflex.istate.storage import Cookie
from reflex.state import State, _resolve_delta
from reflex_base import constants
from reflex_base.constants.state import FIELD_MARKER
from reflex_base.utils import format, serializers

from manga_app.platform import lazy_substates

# Connection data the browser's own hydrate fills in; never part of a page.
_ROUTER_VARS = frozenset(
    name + FIELD_MARKER
    for name in ("rx_router_session", "rx_router_headers", "rx_router_page", "rx_router_url", "rx_router_route_id")
)
_default_snapshot: dict[str, dict[str, str]] | None = None
_browser_storage: frozenset[tuple[str, str]] | None = None


def route_params(template: str, path: str) -> dict[str, str]:
    """Reflex's route arguments (`[slug]` and the like) for a matched path."""
    names = template.strip("/").split("/")
    values = path.split("?", 1)[0].strip("/").split("/")
    return {
        name[1:-1]: unquote(value)
        for name, value in zip(names, values, strict=False)
        if name.startswith("[") and name.endswith("]")
    }


def router_data(path: str, query: str, *, host: str, scheme: str, template: str) -> dict[str, Any]:
    """What the browser's events carry as router data for this URL."""
    params = {**dict(parse_qsl(query, keep_blank_values=True)), **route_params(template, path)}
    return {
        constants.RouteVar.PATH: path,
        constants.RouteVar.ORIGIN: path + (f"?{query}" if query else ""),
        constants.RouteVar.QUERY: params,
        constants.RouteVar.HEADERS: {"host": host, "origin": f"{scheme}://{host}"},
    }


async def page_states(
    on_load: Sequence[Any], data: dict[str, Any], cookies: Mapping[str, str] | None = None
) -> dict[str, dict[str, Any]]:
    """Run `on_load` on a fresh state tree that holds `cookies` (by cookie
    name, as the request sent them) in their rx.Cookie vars, as the
    browser's hydrate would; the states that differ from the compiled
    defaults, in the frontend's format ({state: {var_rx_state_: value}})."""
    root = lazy_substates.made(State)  # only the states the page's handlers use, as a visitor's tree
    root.router_data = root._update_router_vars(data, {})
    for name, value in (cookies or {}).items():
        for state_cls, var in _cookie_vars().get(name, ()):
            # The browser reads cookies URI-decoded (universal-cookie).
            setattr(await root.get_state(state_cls), var, unquote(value))
    pending = list(on_load)
    while pending:
        pending.extend(await _run(root, pending.pop(0)))
    # Only the states the handlers changed (Reflex's delta of the fresh tree), not root.dict(): that
    # recomputes every computed var of every state of the app, about a third of a ranking page's
    # Python time, and serializes states no page load touches.
    return _changed(await _resolve_delta(root.get_delta()), await _defaults())


def seed_json(states: dict[str, dict[str, Any]]) -> str:
    """The states as JSON that is safe inside an HTML <script> element."""
    text = orjson.dumps(states).decode()
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


async def _run(root: State, event: Any) -> list[Any]:
    """Run one on_load handler; the backend events it chains to (browser-side
    effects such as scripts and redirects are for the live app)."""
    if isinstance(event, rx.event.EventSpec):
        handler, args = event.handler, {name._js_expr: value._decode() for name, value in event.args}
    elif isinstance(event, rx.event.EventHandler):
        handler, args = event, {}
    else:
        return []
    if handler.state is None or not issubclass(handler.state, State) or handler.is_background:
        return []  # background work (fetches that count views, say) is the live visit's
    state = await root.get_state(handler.state)
    result = handler.fn(state, **args)
    chained: list[Any] = []
    if inspect.isasyncgen(result):
        async for item in result:
            chained.extend(_events(item))
        return chained
    if inspect.isgenerator(result):
        for item in result:
            chained.extend(_events(item))
        return chained
    if inspect.isawaitable(result):
        result = await result
    return _events(result)


def _events(result: Any) -> list[Any]:
    if result is None:
        return []
    return list(result) if isinstance(result, (list, tuple)) else [result]


async def _defaults() -> dict[str, dict[str, str]]:
    global _default_snapshot
    if _default_snapshot is None:
        snapshot = await _resolve_delta(State(_reflex_internal_init=True).dict(initial=True))
        _default_snapshot = {
            name: {var: orjson.dumps(value).decode() for var, value in values.items()}
            for name, values in orjson.loads(format.json_dumps(snapshot)).items()
        }
    return _default_snapshot


_cookies: dict[str, list[tuple[type[State], str]]] | None = None


def _cookie_vars() -> dict[str, list[tuple[type[State], str]]]:
    """Every named rx.Cookie var, by its cookie's name."""
    global _cookies
    if _cookies is None:
        found: dict[str, list[tuple[type[State], str]]] = {}
        for cls in all_states():
            for name, field in cls.get_fields().items():
                if isinstance(field.default, Cookie) and field.default.name:
                    found.setdefault(field.default.name, []).append((cls, name))
        _cookies = found
    return _cookies


def all_states() -> list[type[State]]:
    """Every state class of the app: the root and all its substates, at any depth."""
    found, classes = [], [State]
    while classes:
        cls = classes.pop()
        found.append(cls)
        classes.extend(cls.get_substates())
    return found


def _in_browser_storage() -> frozenset[tuple[str, str]]:
    """(state, var) of every cookie and local/session storage var: the
    browser's own values, which a page for every visitor must never carry."""
    global _browser_storage
    if _browser_storage is None:
        _browser_storage = frozenset(
            (cls.get_full_name(), name + FIELD_MARKER)
            for cls in all_states()
            for name in cls.get_fields()
            if cls._is_client_storage(name)
        )
    return _browser_storage


# Dataclasses, times and dates go to Reflex's serializers, as in its own JSON.
_AS_REFLEX = orjson.OPT_PASSTHROUGH_DATACLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_NON_STR_KEYS


def plain_json(snapshot: dict[str, dict[str, Any]]) -> Any:
    """`snapshot` as the JSON values Reflex's own encoder (format.json_dumps)
    would send, through orjson with Reflex's serializers: a ranking page's 30
    cards took 2.5 ms in the standard library's encoder, 0.1 ms here. Reflex's
    encoder serves what orjson refuses (an integer over 64 bits, say)."""
    try:
        return orjson.loads(orjson.dumps(snapshot, default=serializers.serialize, option=_AS_REFLEX))
    except TypeError:
        return orjson.loads(format.json_dumps(snapshot))


def _changed(snapshot: dict[str, dict[str, Any]], defaults: dict[str, dict[str, str]]) -> dict[str, dict[str, Any]]:
    plain = plain_json(snapshot)
    stored = _in_browser_storage()
    changed: dict[str, dict[str, Any]] = {}
    for name, values in plain.items():
        default = defaults.get(name, {})
        diff = {
            var: value
            for var, value in values.items()
            if var not in _ROUTER_VARS
            and (name, var) not in stored
            and orjson.dumps(value).decode() != default.get(var)
        }
        if diff:
            changed[name] = diff
    return changed
