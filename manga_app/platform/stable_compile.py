"""The same app compiles to the same files, so a save under `make dev`
changes only the files its change touches.

Reflex 0.10 writes the app's browser-storage fields (the `clientStorage`
of `.web/utils/context.jsx`) in the order of a set of state classes, and a
class hashes by its address: the order changes from one process to the
next. Under `make dev` every save starts a fresh backend worker that
compiles the app again, so context.jsx changed at every save. Vite cannot
hot-replace that module (it exports more than components), so it replaced
everything that imports it, the root included: the open page re-rendered
from its root at every save, often through React's "removeChild" error,
and in a fresh build folder the first edit at times never showed (the
devloop benchmark's first run in a fresh clone waited out its 180 s).
Sorted by key, context.jsx changes only when a stored field does.

Overrides: reflex.compiler.utils.compile_client_storage (called through the
module by reflex.compiler.compiler.compile_contexts).
Why: Reflex has no setting for it; the order carries no meaning (the
browser looks the fields up by name).
Waits for: Reflex writing context.jsx in a stable order (reflex-dev/reflex#5463,
"Sort initial state to avoid spurious changes to context.js", open, sorts
the initial state but not the storage fields).
"""

from __future__ import annotations

import functools
from typing import Any

import reflex.compiler.utils

from manga_app.platform.marks import MARK


def _sorted(original):
    @functools.wraps(original)
    def compile_client_storage(state: Any) -> dict[str, dict[str, dict[str, Any]]]:
        return {kind: dict(sorted(fields.items())) for kind, fields in original(state).items()}

    setattr(compile_client_storage, MARK, True)
    return compile_client_storage


def client_storage_in_a_stable_order() -> None:
    """Before the app is compiled (manga_app.manga_app calls it on import)."""
    if not getattr(reflex.compiler.utils.compile_client_storage, MARK, False):
        reflex.compiler.utils.compile_client_storage = _sorted(reflex.compiler.utils.compile_client_storage)
