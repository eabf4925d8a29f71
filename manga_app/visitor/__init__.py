"""The visitor: who is reading (auth_state, with `visitor_uid`, the one way
other states ask) and the per-visitor Reflex states built on the accounts'
domain code: library, reading lists, reading history in the browser,
notifications, OPDS and feed keys, own data, the operator role; the session
guard run before every event; and `notify`, the notices event handlers show."""
