"""Accounts: Firebase settings, ID-token verification (firebase-admin), the
user tables and their queries (follows with their reading-list statuses,
history, progress, OPDS keys), the local Auth emulator, and the visitor's
Reflex states (auth, library, reading lists, OPDS key)."""
