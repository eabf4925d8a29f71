"""The console's audit log `/admin/audit` (operators only), read only."""
