"""The site has one look: no color-mode script in the head.

Reflex 0.10 always puts a script first in every page's document head
(reflex.utils.misc.preload_color_theme, called while the document root is
compiled) that reads a saved color mode from localStorage and sets a light
or dark class on <html> before React starts. This site has no dark mode
(rxconfig default_color_mode="light", no toggle, no stylesheet that reads
the class), so the script changes nothing a visitor sees, yet it runs while
the page's HTML is parsed, before the first frame: a fresh page's first use
of localStorage costs it about 3.5 ms on the main thread (measured in the
Chromium the benchmarks use), on every page, the reader's first page
included. Reflex has no setting for it; the compiler looks the function up
on its module each time it builds the document, so replacing it there
before the build leaves the script out of the compiled document and every
prerendered page alike. Reflex's color-mode provider still runs with the app.
"""

from __future__ import annotations

import reflex as rx
import reflex.utils.misc


def _no_color_mode_script(default_color_mode: str = "system") -> rx.Component:
    """Stands in for reflex.utils.misc.preload_color_theme: renders nothing."""
    return rx.fragment()


def leave_out_color_mode_script() -> None:
    """Call before the app is compiled (manga_app.manga_app does, on import)."""
    reflex.utils.misc.preload_color_theme = _no_color_mode_script
