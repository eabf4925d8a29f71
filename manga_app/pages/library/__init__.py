"""ライブラリ `/library`: its view (the state is visitor.library_state)."""
