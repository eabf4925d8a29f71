"""閲覧履歴 `/history`: its view (the state is accounts.library_state)."""
