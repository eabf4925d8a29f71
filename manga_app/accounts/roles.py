"""Who is an operator (the console at /admin) and who is a reader. Decided
only from a verified token's claims (accounts.verify), never from anything
the browser says. Pure: no framework imports."""

from __future__ import annotations

from collections.abc import Iterable

from manga_app.accounts.verify import VerifiedUser

__all__ = ["is_operator"]


def is_operator(user: VerifiedUser | None, admin_emails: Iterable[str]) -> bool:
    """A Google account whose verified e-mail is in ADMIN_EMAILS, or any
    non-anonymous account whose token carries the custom claim `admin: true`
    (set with firebase-admin's set_custom_user_claims). Everyone else,
    guests included, is a reader."""
    if user is None or not user.uid or user.is_anonymous:
        return False
    if user.admin_claim:
        return True
    emails = {email.strip().lower() for email in admin_emails}
    return user.provider == "google.com" and user.email_verified and user.email.strip().lower() in emails
