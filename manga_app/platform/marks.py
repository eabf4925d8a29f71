"""The mark of a patched function (shared by the patch modules).

Overrides: nothing (the mark the wing's wrappers carry, so each is installed once).
Why: install() runs once per worker and again in tests.
Waits for: nothing; goes with the last wrapper.
"""

# Set on every function this package put in Reflex's place, so each patch is made once.
MARK = "_manga_guarded"
