"""What the backend asks the browser to do, without eval.

Reflex runs the scripts an event handler returns (`rx.call_script`,
`rx.call_function` with a string) with eval(), which a Content-Security-
Policy without 'unsafe-eval' blocks. Here the backend names a command and
its JSON arguments instead; assets/js/client_commands.js holds the code of
each command and runs it. The command travels as Reflex's own `_set_value`
event, addressed to a ref that module registers (Reflex assigns the value to
`ref.current.value`; the module's setter runs the command): no script text
ever reaches the browser.

What a click does in the browser alone is a declared action
(manga_app/ui/actions.py), never script text; an event that needs a value
of the page passes it as an `rx.Var` argument of the event instead of a
`callback`, which Reflex would eval."""

from __future__ import annotations

from typing import Literal

import reflex as rx
from reflex.utils import format

_REF = "manga_command"
Command = Literal["notify", "sign_out", "replace_url", "later"]


def client_command(name: Command, *args: object) -> rx.event.EventSpec:
    """Return this from an event handler: the browser runs command `name`
    (assets/js/client_commands.js COMMANDS) with `args`."""
    return rx.set_value(_REF, [name, *args])


def later(seconds: float, handler: rx.event.EventHandler) -> rx.event.EventSpec:
    """Return this from an event handler: the browser sends `handler` (no
    arguments) back after `seconds`."""
    return client_command("later", int(seconds * 1000), format.format_event_handler(handler))


class ClientCommands(rx.Component):
    """Renders its children; its module registers the command ref as it loads."""

    library = rx.asset("js/client_commands.js").importable_path
    tag = "ClientCommands"


def client_commands_wrap(_stateful: bool) -> rx.Component:
    """For rx.App(extra_app_wraps=...)."""
    return ClientCommands.create()
