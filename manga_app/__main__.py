"""`python -m manga_app backup DIR` / `restore DIR`: see manga_app/backup/cli.py."""

from manga_app.backup.cli import main

raise SystemExit(main())
