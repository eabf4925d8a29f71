"""Catalogue backend: the database tables, the comic importer and the publisher.

Nothing here imports Reflex: the web layer calls into this package (repository
queries, published JSON), never the other way round.
"""
