"""Backups of everything the site keeps: `python -m manga_app backup DIR` and
`restore DIR`. The database (a consistent snapshot taken while the site runs),
the content key, the media store and the published files; cli.py is the
operator's side, database.py and files.py do the work."""
