"""The reader: its page and state, the browser component and panels, its pure
rules (rules, logic, reading history), the published manifest it reads, the
once-a-day view counts, and the chapter's end: いいね, what readers also read,
and what to read next, with their tables."""
