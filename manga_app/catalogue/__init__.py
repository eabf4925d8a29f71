"""The catalogue's write side: the database tables, the comic importer, the
operator's edits and CLI, and the publisher of the static lists and manifests.

Nothing here imports Reflex: the read side and the web layer call into this
package (repository queries, published JSON), never the other way round.
"""
