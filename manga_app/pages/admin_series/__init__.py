"""The console's series editor `/admin/series/{slug}` (operators only)."""
