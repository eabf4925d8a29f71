"""A page load shows its own content from the first frame to the last: the
states holding a page's content start at their defaults on the page load's
first hydrate, so the browser keeps the server's seed until on_load answers.

A tab keeps its client token across full page loads (sessionStorage), so its
state tree on the server still holds the page it showed before. The first
hydrate of a page load sends that tree, less what equals the compiled
defaults (Reflex's `hashes` diff): the previous title page's TitleState went
out in full, over the new page's seed, and the new title's heading showed
the previous title until on_load's answer put it back (seen in Chromium:
こたつ惑星, おばけ荘の家賃係, こたつ惑星).

A state says it holds a page's content, the same for every visitor and
recomputed in full by its page's on_load from the URL and the catalogue,
with `page_content: ClassVar[bool] = True`. Per-visitor states (the
library, the reading history, the reader's per-tab view) never do.

Overrides: nothing is replaced; App._preprocess (the platform's before_event
hook) resets those states before Reflex's hydrate_and_load takes its snapshot.
Why: Reflex 0.10's hydrate sends the tab's whole stored tree; it has no way
to let a server-rendered page's own states stand.
Waits for: no upstream issue found (Reflex renders pages at build time only,
so its hydrate has no server seed to respect).
"""

from __future__ import annotations

from functools import cache

from reflex.state import BaseState
from reflex_base import constants

from manga_app.platform.states import all_states

CONTENT = "page_content"


def first_hydrate_of_a_page(event) -> bool:
    """A page load's first hydrate: hydrate_and_load with the compiled
    initial state's hashes (a reconnect of an open page sends none)."""
    name = str(getattr(event, "name", ""))
    payload = getattr(event, "payload", None) or {}
    return name.rpartition(".")[2] == constants.CompileVars.HYDRATE_AND_LOAD and bool(
        payload.get(constants.CompileVars.PAYLOAD_HASHES))


def reset_page_content(root: BaseState) -> None:
    """Every page-content state the tree holds, back to its defaults (a state
    it does not hold is made with them when first used)."""
    for path in _content_paths():
        state = _held(root, path)
        if state is not None:
            state.reset()


@cache
def _content_paths() -> tuple[tuple[str, ...], ...]:
    """Each page-content state's names under the root (its full name less the root's)."""
    return tuple(tuple(cls.get_full_name().split(".")[1:]) for cls in all_states() if getattr(cls, CONTENT, False))


def _held(root: BaseState, path: tuple[str, ...]) -> BaseState | None:
    """The state at `path` when the tree already holds it (never made here)."""
    state: BaseState | None = root
    for name in path:
        state = dict.get(state.substates, name)
        if state is None:
            return None
    return state
