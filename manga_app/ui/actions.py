"""What a button does in the browser alone (open a dialog, scroll a row,
share, copy, sign in), declared as data attributes that assets/js/actions.js
runs from one click listener: Python holds no script text and the page no
globals. An action runs in the click itself, so a Google popup counts as a
user gesture; a button may still have an `on_click` event for the backend.

    rx.el.button("共有", type="button", custom_attrs=action("share"))"""

from __future__ import annotations

from typing import Literal

# The names of assets/js/actions.js ACTIONS (tests/unit/test_frontend_contract.py keeps both alike).
Action = Literal[
    "dialog-open", "dialog-close", "scroll-row", "share", "copy",
    "sign-in-google", "sign-in-guest", "sign-out", "sign-out-now",
]


def action(name: Action, *, target: str = "", step: int = 0, close: str = "") -> dict[str, str]:
    """The attributes of a button that runs action `name` on element id
    `target` (a dialog, a row, a field), `step` screens for a row, after
    closing the dialog `close`."""
    attrs = {"data-action": name}
    if target:
        attrs["data-target"] = target
    if step:
        attrs["data-step"] = str(step)
    if close:
        attrs["data-close"] = close
    return attrs
