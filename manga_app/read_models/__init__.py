"""Read models: the catalogue held once per process (held, loader, compact,
columns; read from the published folder or a CDN: published), and the title
and chapter views read from the database (titles). Pages read here; nothing
writes."""
