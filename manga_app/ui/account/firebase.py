"""The Firebase Auth client (assets/js/firebase/client.jsx) as a Reflex
component. The npm package is pinned here, once for the whole app."""

import reflex as rx
from manga_app.ui.actions import action

FIREBASE_PACKAGE = "firebase@12.19.0"


class FirebaseAuth(rx.Component):
    library = rx.asset("js/firebase/client.jsx").importable_path
    tag = "FirebaseAuth"
    lib_dependencies: list[str] = [FIREBASE_PACKAGE]

    # initializeApp options plus "emulatorHost", sent by the backend when the
    # client mounts; the client starts once they arrive.
    config: rx.Var[dict]
    # The backend's AuthState.loading: true again after the client reported
    # means the backend lost this tab's session, so the client reports again.
    loading: rx.Var[bool]

    # (user | null, ID token): the provider's auth-state notification.
    on_auth_change: rx.EventHandler[lambda user, token: [user, token]]
    # A refreshed ID token of the same user.
    on_token: rx.EventHandler[lambda token: [token]]
    # (anonymous token, Google token): merge the anonymous library into the Google account.
    on_merge: rx.EventHandler[lambda anonymous_token, token: [anonymous_token, token]]
    # Local persistence could not be set up (the message of the error).
    on_persistence_error: rx.EventHandler[lambda message: [message]]
    on_error: rx.EventHandler[lambda code: [code]]


def sign_in_with_google() -> dict[str, str]:
    """A button's attributes: runs in the click itself, so the popup counts as a user gesture."""
    return action("sign-in-google")


def sign_in_anonymously() -> dict[str, str]:
    return action("sign-in-guest")


def sign_out() -> dict[str, str]:
    """ログアウト as the visitor asks for it: a guest is asked first
    (ui/account/guest_sign_out.py), since a guest's library cannot come back."""
    return action("sign-out")
