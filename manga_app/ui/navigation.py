"""The spec's navigation history (docs/spec.md section 2): a stack of visited paths starting at '/'.
Pure functions so the rule is tested without a browser."""

from __future__ import annotations

ROOT = "/"
# A tab that wanders for hours should not grow its state without bound.
MAX_DEPTH = 50


def visit(stack: list[str], path: str) -> list[str]:
    """The stack after visiting `path`.

    Visiting a path already on the stack truncates the stack to that path
    (as the spec says for navigating back); a new path is pushed.
    """
    current = list(stack) or [ROOT]
    if current[0] != ROOT:
        current.insert(0, ROOT)
    if path in current:
        return current[: current.index(path) + 1]
    current.append(path)
    if len(current) > MAX_DEPTH:
        current = [ROOT, *current[-(MAX_DEPTH - 1):]]
    return current
