"""ライブラリ `/library`: its view (the state is accounts.library_state)."""
