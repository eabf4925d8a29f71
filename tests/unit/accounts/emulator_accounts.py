"""Accounts and ID tokens made by the real Auth emulator, through its REST
API (what the browser SDK calls), for tests."""

from __future__ import annotations

import base64
import json
import uuid

import httpx

from manga_app.accounts.settings import DEFAULT_EMULATOR_HOST, DEFAULT_PROJECT_ID

API = f"http://{DEFAULT_EMULATOR_HOST}/identitytoolkit.googleapis.com/v1"
KEY = "demo-api-key"


def anonymous_token() -> str:
    response = httpx.post(f"{API}/accounts:signUp", params={"key": KEY}, json={"returnSecureToken": True}, timeout=10)
    response.raise_for_status()
    return response.json()["idToken"]


def google_token(email: str | None = None, name: str = "テスト ユーザー", *, sub: str | None = None) -> str:
    """Sign in with the emulator's fake Google IdP; the same `sub` is the same user."""
    email = email or f"user-{uuid.uuid4().hex[:8]}@example.com"
    claims = {"sub": sub or f"google-{email}", "email": email, "email_verified": True, "name": name,
              "picture": "https://lh3.googleusercontent.com/a/test-avatar"}
    response = httpx.post(
        f"{API}/accounts:signInWithIdp",
        params={"key": KEY},
        json={
            "postBody": f"id_token={json.dumps(claims)}&providerId=google.com",
            "requestUri": "http://localhost",
            "returnSecureToken": True,
        },
        timeout=10,
    )
    response.raise_for_status()
    return response.json()["idToken"]


def claims_of(token: str) -> dict:
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def with_claims(token: str, **changes) -> str:
    """The same unsigned emulator token with some claims changed (a forgery)."""
    header, _payload, signature = token.split(".")
    return ".".join([header, _b64(json.dumps({**claims_of(token), **changes}).encode()), signature])


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


__all__ = ["DEFAULT_PROJECT_ID", "anonymous_token", "claims_of", "google_token", "with_claims"]
