"""`python -m manga_app.catalogue ...`: see cli.py."""

from manga_app.catalogue.cli import main

raise SystemExit(main())
