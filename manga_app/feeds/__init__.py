"""Atom feeds (RFC 4287) for feed readers: a series' newest units and a
reader's library; the documents (atom.py, pure) and their queries
(queries.py). Served by web/feeds.py."""
