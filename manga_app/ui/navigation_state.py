"""The visitor's navigation stack (per browser tab) and the back control."""

import reflex as rx

from manga_app.ui import navigation


class NavigationState(rx.State):
    """Paths visited in this tab, starting at '/'."""

    stack: list[str] = [navigation.ROOT]

    @rx.event
    def track(self):
        """On every page load: push the path, or truncate back to it."""
        self.stack = navigation.visit(self.stack, self.router.url.path or navigation.ROOT)

    @rx.var
    def current_path(self) -> str:
        """The path of the page shown (the stack's top): the tab bar marks its tab."""
        return self.stack[-1] if self.stack else navigation.ROOT
