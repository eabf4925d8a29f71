"""The console's upload `/admin/upload` (operators only): drop files or folders, see the plan, confirm."""
