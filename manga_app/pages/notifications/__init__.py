"""通知 `/notifications`: new chapters and volumes of followed series (the
state is accounts.notification_state)."""
