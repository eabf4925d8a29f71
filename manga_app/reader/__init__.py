"""The reader: its page and state, the browser component and panels, its pure
rules (rules, logic, reading history), the published manifest it reads, and the
once-a-day view counts with their table."""
