"""The console's jobs `/admin/jobs` (operators only): library folders and import jobs."""
