"""What pages show, as small typed records (records.py: cards, chips, tab
and page links, chapter rows) built from catalogue items: plain dataclasses
that Reflex states hold and the UI renders. No Reflex import."""
