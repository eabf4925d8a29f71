"""Read models: the catalogue held once per process (held, loader, compact,
columns), the search index built from it (search_index), and the title and
chapter views read from the database (titles). Pages read here; nothing writes."""
