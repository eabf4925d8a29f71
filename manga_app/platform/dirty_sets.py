"""Each state's sets of changed vars and changed substates, held only while
they hold something (issue 19).

Reflex gives every state two empty sets (`dirty_vars`, `dirty_substates`)
and, after each event, two new empty ones: 216 bytes each, about 8 KB per
connected visitor (19 states) for sets that are empty between events. Here
each state stores None for an empty set; reading it gives an empty set that
becomes the state's own when something is added to it, and assigning an
empty set stores None again (Reflex assigns new empty sets to clean a state
after an event). What Reflex reads and writes is unchanged.

Reflex's code adds to one of these sets right after reading it (never two
reads held and both added to), which is what the set handed out for an
empty one relies on: the first addition to it makes it the state's.

Overrides: BaseState.dirty_vars and dirty_substates (the fields, as
properties storing None for an empty set).
Why: 8 KB per connected visitor of empty sets (issue 19).
Waits for: no upstream issue found; Reflex's state hot-path work touches the
same fields (reflex-dev/reflex#6743, open) and may make this moot.
"""

from __future__ import annotations

from reflex.state import BaseState

NAMES = ("dirty_vars", "dirty_substates")


class _Unborn(set):
    """An empty set read from a state that holds none; added to, it becomes the state's."""

    __slots__ = ("_slot", "_state")

    def _adopt(self) -> None:
        if self._state is not None:
            self._slot.__set__(self._state, self)
            self._state = None

    def add(self, item) -> None:
        self._adopt()
        set.add(self, item)

    def update(self, *others) -> None:
        self._adopt()
        set.update(self, *others)

    def symmetric_difference_update(self, other) -> None:
        self._adopt()
        set.symmetric_difference_update(self, other)

    def __ior__(self, other):
        self.update(other)
        return self

    def __ixor__(self, other):
        self.symmetric_difference_update(other)
        return self


def _held_while_not_empty(slot) -> property:
    def get(state: BaseState) -> set:
        held = slot.__get__(state, type(state))
        if held is None:
            held = _Unborn()
            held._slot, held._state = slot, state
        return held

    def put(state: BaseState, value: set) -> None:
        slot.__set__(state, value if value else None)

    return property(get, put, doc=f"{slot.__name__} (None while empty)")


def install() -> None:
    """Replace BaseState's two slots by properties over them (idempotent)."""
    for name in NAMES:
        slot = BaseState.__dict__[name]
        if not isinstance(slot, property):
            setattr(BaseState, name, _held_while_not_empty(slot))
