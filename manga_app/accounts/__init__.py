"""Accounts: Firebase settings, ID-token verification (firebase-admin), the
user tables and their queries (follows, history, progress, OPDS keys), the
local Auth emulator, and the visitor's Reflex states (auth, library, OPDS key)."""
