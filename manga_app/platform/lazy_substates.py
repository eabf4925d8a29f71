"""A visitor's state tree in memory holds only the states their events use,
each made when first needed (issue 19's memory per visitor).

Reflex's in-memory state manager makes every state of the app for every
visitor at their first event: 35 states here, most of them (the operator's
console, the calendar, the library...) never used by a visitor who opens a
title page, and each then filled with its defaults by the hydrate's full
snapshot. Here a visitor's tree starts with the root alone, and a state is
made (with its defaults, as Reflex would have made it) the first time
anything looks it up by name: an event handler's own state, `get_state`,
a computed var marked dirty by a change in another state, a browser's
stored value for it. A state never looked up is exactly as Reflex would
have made it, never changed, so leaving it out of a snapshot leaves the
browser with the same defaults (its compiled initial state).

This is the partial tree Reflex already works with under Redis, where a
worker loads only the states an event needs (StateManagerRedis); there a
missing state is loaded from Redis, here it is made fresh, because in
memory nothing else can hold it. Redis-held trees are never made lazy.

Overrides: StateManagerMemory._get_or_create_state (the root made without
its substates; the `substates` slot of each state it makes holds a
LazySubstates).
Why: about 12 KB of each connected visitor's memory were states they never
used (`python -m benchmarks.memory_probe --trace`).
Waits for: no upstream issue found; Reflex's memory manager makes every
state eagerly (`init_substates=True`).
"""

from __future__ import annotations

from typing import Any, cast

from reflex.istate.manager.memory import StateManagerMemory
from reflex.istate.manager.token import TOKEN_TYPE, BaseStateToken, StateToken
from reflex.state import BaseState

_by_name: dict[type[BaseState], dict[str, type[BaseState]]] = {}


class LazySubstates(dict):
    """A state's substates by name, each made on first lookup (`in`, `[]`)."""

    __slots__ = ("_parent",)

    def __init__(self, parent: BaseState):
        super().__init__()
        self._parent = parent

    def __contains__(self, name: object) -> bool:
        return dict.__contains__(self, name) or self._made(name) is not None

    def __missing__(self, name: str) -> BaseState:
        made = self._made(name)
        if made is None:
            raise KeyError(name)
        return made

    # Snapshots: a lookup may make a state while Reflex walks the tree, which a live view of the dict would
    # refuse ("changed size during iteration"); with live views, pages' hydrations failed in the e2e tests.
    def __iter__(self):
        return iter(list(dict.keys(self)))

    def keys(self):  # type: ignore[override]
        return list(dict.keys(self))

    def values(self):  # type: ignore[override]
        return list(dict.values(self))

    def items(self):  # type: ignore[override]
        return list(dict.items(self))

    def _made(self, name: object) -> BaseState | None:
        parent_cls = type(self._parent)
        classes = _by_name.get(parent_cls)
        if classes is None:
            classes = _by_name[parent_cls] = {cls.get_name(): cls for cls in parent_cls.get_substates()}
        cls = classes.get(name)  # type: ignore[arg-type]
        if cls is None:
            return None
        state = made(cls, self._parent)
        dict.__setitem__(self, name, state)
        # Its computed vars go out with the next delta: the whole tree's hydrate snapshot would have carried
        # them, and the browser holds only their compiled values. Its fields are at their defaults, which is
        # what the browser's initial state holds (or the server's seed for its page, which its on_load makes).
        computed = [var for var, cvar in cls.computed_vars.items() if not cvar._backend]
        if computed:
            state.dirty_vars.update(computed)
            state._mark_ancestors_dirty()
        return state


def made(cls: type[BaseState], parent: BaseState | None = None) -> BaseState:
    """A state as Reflex makes it, with no substates yet: they are made on first lookup."""
    state = cls(parent_state=parent, init_substates=False, _reflex_internal_init=True)
    object.__setattr__(state, "substates", LazySubstates(state))
    return state


def _get_or_create_state(self: StateManagerMemory, token: StateToken[TOKEN_TYPE]) -> TOKEN_TYPE:
    """StateManagerMemory._get_or_create_state, the root state made alone."""
    key = token.cache_key
    if key not in self.states:
        if isinstance(token, BaseStateToken):
            self.states[key] = made(token.cls.get_root_state())
        else:
            self.states[key] = token.cls()
    return cast(Any, self.states[key])


def install() -> None:
    StateManagerMemory._get_or_create_state = _get_or_create_state  # type: ignore[method-assign]
