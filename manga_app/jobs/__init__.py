"""Background jobs: imports (of an uploaded batch, of a library folder the
operator registered) run by a huey consumer beside the server, with their
progress, per-file results and cancellation kept in the site's database so
that a job outlives a restart of the server (recovery.py)."""
