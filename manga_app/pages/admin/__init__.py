"""The console's overview `/admin` (operators only; a 404 to readers)."""
