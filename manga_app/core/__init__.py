"""Core: typed settings (config), the content key and manifest crypto, the
database engine and migrations (db), every public URL (routes) and the display
helpers. Everything else builds on these; only db.py imports a database library."""
