"""Japanese-aware search over the held catalogue: folding (normalize), the
index, ranking, highlighting, near-title suggestions, URL parameters and
paging. Pure package: no web framework, database or HTTP imports."""
