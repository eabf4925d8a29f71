"""Real touch sequences for end-to-end tests, sent through the DevTools
protocol (Input.dispatchTouchEvent), so the browser's own gesture handling
(scrolling, back-swipe, pinch) sees them as it sees a finger."""

from __future__ import annotations

from playwright.sync_api import CDPSession, Page

STEPS = 12


class Fingers:
    """Fingers on `page`'s screen (CSS pixels of the viewport)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.cdp: CDPSession = page.context.new_cdp_session(page)

    def _send(self, kind: str, points: list[tuple[float, float]]) -> None:
        touch_points = [{"x": x, "y": y, "id": index, "radiusX": 4, "radiusY": 4, "force": 1} for index, (x, y) in enumerate(points)]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": touch_points})

    def drag(self, paths: list[tuple[tuple[float, float], tuple[float, float]]], steps: int = STEPS, pause_ms: int = 16) -> None:
        """Fingers down at each path's start, moved together to its end, lifted."""
        starts = [start for start, _ in paths]
        self._send("touchStart", starts)
        for step in range(1, steps + 1):
            share = step / steps
            self._send("touchMove", [(sx + (ex - sx) * share, sy + (ey - sy) * share) for (sx, sy), (ex, ey) in paths])
            self.page.wait_for_timeout(pause_ms)
        self._send("touchEnd", [])

    def swipe(self, start: tuple[float, float], end: tuple[float, float], steps: int = STEPS) -> None:
        self.drag([(start, end)], steps)

    def pinch(self, centre: tuple[float, float], from_gap: float, to_gap: float, steps: int = STEPS) -> None:
        """Two fingers side by side around `centre`, moved apart (or together)."""
        x, y = centre
        self.drag([((x - from_gap / 2, y), (x - to_gap / 2, y)), ((x + from_gap / 2, y), (x + to_gap / 2, y))], steps)

    def tap(self, x: float, y: float) -> None:
        self._send("touchStart", [(x, y)])
        self._send("touchEnd", [])

    def double_tap(self, x: float, y: float) -> None:
        self.tap(x, y)
        self.tap(x, y)
