"""The Firebase client root: rendered once for the whole app (an app wrap in
manga_app.py), it reports the visitor's auth state to AuthState and then
lets LibraryState follow whoever is signed in."""

import reflex as rx

from manga_app.auth.settings import get_firebase_config
from manga_app.components.account.firebase import FirebaseAuth
from manga_app.state.auth import AuthState
from manga_app.state.library import LibraryState


def firebase_auth_root(*children: rx.Component) -> rx.Component:
    config = get_firebase_config()
    return FirebaseAuth.create(
        *children,
        config=config.web_config(),
        emulator_url=config.emulator_url,
        on_auth_change=[AuthState.on_auth_change, LibraryState.sync],
        on_token=AuthState.on_token,
        on_merge=[AuthState.on_merge, LibraryState.sync],
        on_error=AuthState.on_error,
    )
