"""The reader: its page and state, the browser component and panels, its pure
rules (rules, logic), the published manifest it reads, and the chapter's end:
いいね, what readers also read, and what to read next (the tables of views and
likes are in manga_app/engagement/, the reading history's format in
manga_app/accounts/reading.py)."""
