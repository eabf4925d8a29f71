"""The Firebase client root: rendered once for the whole app (an app wrap in
manga_app.py), it reports the visitor's auth state to AuthState and then
lets LibraryState follow whoever is signed in."""

import reflex as rx

from manga_app.ui.account.firebase import FirebaseAuth
from manga_app.ui.account.guest_sign_out import guest_sign_out_dialog
from manga_app.visitor.auth_state import AuthState
from manga_app.visitor.library_state import LibraryState
from manga_app.visitor.operator_state import OperatorState


def firebase_auth_root() -> rx.Component:
    return FirebaseAuth.create(
        config=AuthState.client_config,
        loading=AuthState.loading,
        on_mount=AuthState.start_client,
        on_auth_change=[AuthState.on_auth_change, LibraryState.sync, OperatorState.follow],
        on_token=[AuthState.on_token, LibraryState.sync, OperatorState.follow],
        on_merge=[AuthState.on_merge, LibraryState.sync, OperatorState.follow],
        on_persistence_error=AuthState.on_persistence_error,
        on_error=AuthState.on_error,
    )


def firebase_app_wrap(_stateful: bool) -> rx.Component:
    """For rx.App(extra_app_wraps=...): the root beside the page, not around
    it, so its state updates never re-render the page."""
    return rx.fragment(firebase_auth_root(), guest_sign_out_dialog())
