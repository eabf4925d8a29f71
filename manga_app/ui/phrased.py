"""Titles and headings that break between phrases, not inside words: the
server cuts them (cards/records.phrase_parts) and marks each boundary with
<wbr>; CSS `.phrased` (browse.css) forbids every other break."""

import reflex as rx

from manga_app.core.phrases import phrases


def phrased(parts: rx.Var) -> rx.Component:
    """records.Part pieces: matched ones marked, a <wbr> after each phrase."""
    return rx.foreach(
        parts,
        lambda part: rx.fragment(rx.cond(part.hit, rx.el.mark(part.text), part.text), rx.cond(part.wbr, rx.el.wbr())),
    )


def phrased_text(text: str) -> list[rx.Component | str]:
    """A fixed text's phrases with a <wbr> between them, as children of an
    element of class `phrased` (segmented once, when the page is compiled)."""
    children: list[rx.Component | str] = []
    for phrase in phrases(text):
        children += [rx.el.wbr(), phrase] if children else [phrase]
    return children
