"""ID-token verification with firebase-admin: the only way a uid enters the
backend. Signature, expiry, audience (the project id) and issuer are checked
by firebase-admin; expiry and issue time are checked here again because
firebase-admin skips them for the emulator's unsigned tokens."""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass

import firebase_admin
from firebase_admin import auth as admin_auth
from firebase_admin import credentials
from firebase_admin import exceptions as admin_exceptions

from manga_app.accounts.settings import EMULATOR_ENV, FirebaseConfig

logger = logging.getLogger(__name__)

# Real Firebase ID tokens are about 1 KB; anything far larger is not one.
MAX_TOKEN_LENGTH = 8192
CLOCK_SKEW_SECONDS = 10
MAX_NAME = 100
MAX_EMAIL = 254
MAX_AVATAR = 1000


class TokenRefused(Exception):
    """The token is not a valid, current ID token of this project."""


class VerificationUnavailable(Exception):
    """The identity provider did not answer (an outage): nothing is known
    about the token, so no session should end because of it."""


# Seconds firebase-admin waits for Firebase (its default is 120: a provider
# that stops answering would hold a verification thread that long).
PROVIDER_TIMEOUT = 5.0


@dataclass(frozen=True)
class VerifiedUser:
    """Claims of a verified token: the only user identity the backend trusts."""

    uid: str
    email: str
    name: str
    avatar: str
    is_anonymous: bool
    provider: str
    # Whether the provider verified the e-mail, and the token's `admin: true`
    # custom claim (accounts.roles decides who is an operator from these).
    email_verified: bool = False
    admin_claim: bool = False
    # The token's expiry (epoch seconds): the session needs a fresh one after it.
    expires_at: float = 0.0


_apps: dict[str, firebase_admin.App] = {}
_apps_lock = threading.Lock()


def admin_app(config: FirebaseConfig, credential: credentials.Base | None = None) -> firebase_admin.App:
    """One firebase-admin app per project id, created on first use.

    The emulator needs no credentials; a real project uses
    GOOGLE_APPLICATION_CREDENTIALS (firebase-admin's default)."""
    if config.emulated:
        # firebase-admin reads this at every verification; the settings only
        # allow it for demo- projects, which exist nowhere but the emulator.
        os.environ[EMULATOR_ENV] = config.emulator_host
    # One per emulator too: firebase-admin's auth client keeps the emulator address it was made with.
    key = f"{config.project_id}@{config.emulator_host}" if config.emulated else config.project_id
    with _apps_lock:
        app = _apps.get(key)
        if app is None:
            options = {"projectId": config.project_id, "httpTimeout": PROVIDER_TIMEOUT}
            app = firebase_admin.initialize_app(credential=credential, options=options, name=f"manga-{key}")
            _apps[key] = app
        return app


def verify_id_token(
    token: object, *, config: FirebaseConfig, now: float | None = None, check_revoked: bool = False
) -> VerifiedUser:
    """The user a token proves, or TokenRefused. Blocking (may fetch Google's
    public keys): call it with asyncio.to_thread from event handlers.

    `check_revoked` (for sign-ins, when the project allows it) also asks
    Firebase for the account: a revoked token, a disabled or deleted account
    is refused."""
    if not isinstance(token, str) or not token or len(token) > MAX_TOKEN_LENGTH:
        raise TokenRefused("not a token")
    revocation = check_revoked and config.check_revoked
    try:
        claims = admin_auth.verify_id_token(token, app=admin_app(config), check_revoked=revocation)
    except (ValueError, admin_auth.InvalidIdTokenError, admin_auth.ExpiredIdTokenError) as error:
        # Revoked tokens and disabled accounts are InvalidIdTokenError subclasses.
        raise TokenRefused(str(error)) from error
    except admin_auth.UserNotFoundError as error:
        raise TokenRefused("the account no longer exists") from error
    except admin_auth.CertificateFetchError as error:
        logger.error("Could not fetch the Firebase token certificates: %.200s", error)
        raise VerificationUnavailable("certificates unavailable") from error
    except admin_exceptions.FirebaseError as error:
        logger.error("Could not check the account of an ID token: %.200s", error)
        raise VerificationUnavailable("account check unavailable") from error
    _check_times(claims, now=time.time() if now is None else now)
    return _user_from(claims)


def _check_times(claims: dict, *, now: float) -> None:
    exp, iat = claims.get("exp"), claims.get("iat")
    if not isinstance(exp, (int, float)) or not isinstance(iat, (int, float)):
        raise TokenRefused("token without exp/iat")
    if exp <= now - CLOCK_SKEW_SECONDS:
        raise TokenRefused("token expired")
    if iat > now + CLOCK_SKEW_SECONDS:
        raise TokenRefused("token issued in the future")


def _user_from(claims: dict) -> VerifiedUser:
    firebase = claims.get("firebase") if isinstance(claims.get("firebase"), dict) else {}
    provider = str(firebase.get("sign_in_provider") or "")
    return VerifiedUser(
        uid=str(claims["uid"]),
        email=_text(claims.get("email"), MAX_EMAIL),
        name=_text(claims.get("name"), MAX_NAME),
        avatar=_avatar(claims.get("picture")),
        is_anonymous=provider == "anonymous",
        provider=provider,
        email_verified=claims.get("email_verified") is True,
        admin_claim=claims.get("admin") is True,
        expires_at=float(claims["exp"]),
    )


def _text(value: object, limit: int) -> str:
    return value.strip()[:limit] if isinstance(value, str) else ""


def _avatar(value: object) -> str:
    """Only http(s) photo URLs reach an <img src>."""
    text = _text(value, MAX_AVATAR)
    return text if text.startswith(("https://", "http://")) else ""


def delete_firebase_user(uid: str, *, config: FirebaseConfig) -> bool:
    """Delete the sign-in account itself (the emulator's, or the project's with
    GOOGLE_APPLICATION_CREDENTIALS). True when it is gone (or never existed),
    False when Firebase could not be asked. Blocking: call it in a thread."""
    try:
        admin_auth.delete_user(uid, app=admin_app(config))
    except admin_auth.UserNotFoundError:
        return True
    except (ValueError, admin_exceptions.FirebaseError) as error:
        logger.error("Could not delete the Firebase user %s: %.200s", uid, error)
        return False
    return True
