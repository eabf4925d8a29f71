"""Who is an operator, from tokens the real Auth emulator issued: a verified
Google e-mail named in ADMIN_EMAILS or the custom claim admin: true; a guest,
another Google account or an unverified e-mail is a reader."""

from __future__ import annotations

import uuid

from firebase_admin import auth as admin_auth

from manga_app.accounts.roles import is_operator
from manga_app.accounts.verify import admin_app, verify_id_token

from .emulator_accounts import anonymous_token, claims_of, google_token


def _email() -> str:
    return f"op-{uuid.uuid4().hex[:8]}@example.com"


def test_a_verified_google_email_in_admin_emails_is_an_operator_whatever_its_case(emulated_config):
    email = _email()
    user = verify_id_token(google_token(email), config=emulated_config)
    assert is_operator(user, [f"  {email.upper()} ", "other@example.com"])
    assert not is_operator(user, ["other@example.com"])
    assert not is_operator(user, [])


def test_guests_and_unverified_emails_are_readers(emulated_config):
    guest = verify_id_token(anonymous_token(), config=emulated_config)
    assert not is_operator(guest, [""]) and not is_operator(None, ["x@example.com"])
    email = _email()
    user = verify_id_token(google_token(email), config=emulated_config)
    unverified = user.__class__(**{**user.__dict__, "email_verified": False})
    assert not is_operator(unverified, [email])


def test_the_admin_custom_claim_makes_an_operator_once_the_token_carries_it(emulated_config):
    email = _email()
    first = google_token(email)
    uid = claims_of(first)["user_id"]
    assert not is_operator(verify_id_token(first, config=emulated_config), [])
    admin_auth.set_custom_user_claims(uid, {"admin": True}, app=admin_app(emulated_config))
    again = google_token(email)  # the next sign-in's token carries the claim
    assert is_operator(verify_id_token(again, config=emulated_config), [])
    admin_auth.set_custom_user_claims(uid, {"admin": "yes"}, app=admin_app(emulated_config))
    assert not is_operator(verify_id_token(google_token(email), config=emulated_config), []), "only admin: true"


def test_the_operators_cli_grants_and_revokes_the_claim_on_the_emulator(emulated_config, capsys):
    from manga_app.accounts import operators

    email = _email()
    assert operators.main(["grant", email]) == 0
    assert "is an operator on the Auth emulator" in capsys.readouterr().out
    # A Google sign-in with that address in the emulator is that account, with the claim.
    assert is_operator(verify_id_token(google_token(email), config=emulated_config), [])
    assert operators.main(["revoke", email]) == 0
    assert not is_operator(verify_id_token(google_token(email), config=emulated_config), [])
    assert operators.main(["revoke", _email()]) == 2
    assert "must sign in once first" in capsys.readouterr().err
