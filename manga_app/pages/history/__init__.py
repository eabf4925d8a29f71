"""閲覧履歴 `/history`: its view (the state is visitor.library_state)."""
