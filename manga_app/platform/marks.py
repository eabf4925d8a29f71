"""The mark of a patched function (shared by the patch modules)."""

# Set on every function this package put in Reflex's place, so each patch is made once.
MARK = "_manga_guarded"
