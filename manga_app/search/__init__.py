"""Japanese-aware search over the held catalogue: folding (normalize), the
index, ranking, highlighting, near-title suggestions, URL parameters and
paging, all pure (no web framework, database or HTTP imports); and the
index of the held catalogue (held_index), built from read_models, which
never reads search."""
