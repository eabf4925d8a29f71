"""The spec's navigation history (docs/spec.md section 2): a stack of visited paths starting at '/'.
Pure functions so the rule is tested without a browser."""

from __future__ import annotations

ROOT = "/"
# A tab that wanders for hours should not grow its state without bound.
MAX_DEPTH = 50


def is_site_path(path: str) -> bool:
    """A path of this site: one leading '/', then no backslash or control
    character. `//evil.example/x` (or `/\\evil.example`) names another
    site: a link to it would leave this one."""
    return (
        path.startswith("/")
        and not path.startswith("//")
        and not any(char == "\\" or ord(char) < 0x20 or char == "\x7f" for char in path)
    )


def visit(stack: list[str], path: str) -> list[str]:
    """The stack after visiting `path`.

    Visiting a path already on the stack truncates the stack to that path
    (as the spec says for navigating back); a new path is pushed. A path
    that is not the site's is never kept: the back control must not lead
    off the site (an open redirect).
    """
    current = [entry for entry in stack if is_site_path(entry)] or [ROOT]
    if not is_site_path(path):
        return current
    if current[0] != ROOT:
        current.insert(0, ROOT)
    if path in current:
        return current[: current.index(path) + 1]
    current.append(path)
    if len(current) > MAX_DEPTH:
        current = [ROOT, *current[-(MAX_DEPTH - 1):]]
    return current
