"""Accounts, the domain: Firebase settings, ID-token verification
(firebase-admin), the user tables and their queries (follows with their
reading-list statuses, progress, the reading-history format, OPDS and feed
keys, notifications, own data), and the local Auth emulator. No Reflex state:
the visitor's states are in manga_app/visitor/."""
