"""Titles and headings that break between phrases, not inside words: the
server cuts them (ui/records.phrase_parts) and marks each boundary with
<wbr>; CSS `.phrased` (browse.css) forbids every other break."""

import reflex as rx


def phrased(parts: rx.Var) -> rx.Component:
    """records.Part pieces: matched ones marked, a <wbr> after each phrase."""
    return rx.foreach(
        parts,
        lambda part: rx.fragment(rx.cond(part.hit, rx.el.mark(part.text), part.text), rx.cond(part.wbr, rx.el.wbr())),
    )
