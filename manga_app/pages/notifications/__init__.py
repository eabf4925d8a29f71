"""通知 `/notifications`: new chapters and volumes of followed series (the
state is visitor.notification_state)."""
