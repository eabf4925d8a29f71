"""Accounts: Firebase settings, ID-token verification (firebase-admin), the
user tables and their queries, and the local Auth emulator.

Knows nothing of pages, components or state: those call in here."""
