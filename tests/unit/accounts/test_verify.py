"""ID tokens: what firebase-admin (plus our time checks) accepts and refuses.

Emulator mode uses tokens the real Auth emulator issued; real mode uses RS256
tokens checked by firebase-admin's signature verification."""

from __future__ import annotations

import dataclasses
import socket
import threading
import time
import uuid

import pytest
from manga_app.accounts.settings import EMULATOR_ENV, FirebaseSettings, resolve
from manga_app.accounts.verify import MAX_TOKEN_LENGTH, TokenRefused, VerificationUnavailable, verify_id_token

from .emulator_accounts import anonymous_token, claims_of, google_token, with_claims
from .signed_tokens import PROJECT, Signer

# --- emulator mode: tokens from the real Auth emulator ---------------------


def test_a_google_token_from_the_emulator_gives_the_user_of_its_claims(emulated_config):
    # A new address each run: an emulator left running keeps the accounts of earlier runs.
    email = f"hanako-{uuid.uuid4().hex[:8]}@example.com"
    token = google_token(email, name="花子")
    user = verify_id_token(token, config=emulated_config)
    assert user.uid == claims_of(token)["sub"]
    assert (user.email, user.name, user.avatar) == (email, "花子", "https://lh3.googleusercontent.com/a/test-avatar")
    assert user.is_anonymous is False


def test_an_anonymous_token_is_an_anonymous_user(emulated_config):
    user = verify_id_token(anonymous_token(), config=emulated_config)
    assert user.is_anonymous is True and user.uid and user.email == ""


def test_a_token_of_another_project_is_refused(auth_emulator, monkeypatch):
    monkeypatch.setenv(EMULATOR_ENV, auth_emulator)
    other = resolve(FirebaseSettings(_env_file=None, firebase_project_id="demo-other-site"))
    with pytest.raises(TokenRefused, match="aud"):
        verify_id_token(anonymous_token(), config=other)


def test_an_expired_emulator_token_is_refused(emulated_config):
    token = with_claims(anonymous_token(), exp=int(time.time()) - 3600, iat=int(time.time()) - 7200)
    with pytest.raises(TokenRefused, match="expired"):
        verify_id_token(token, config=emulated_config)


def test_a_token_issued_in_the_future_is_refused(emulated_config):
    token = with_claims(anonymous_token(), iat=int(time.time()) + 3600, exp=int(time.time()) + 7200)
    with pytest.raises(TokenRefused, match="future"):
        verify_id_token(token, config=emulated_config)


@pytest.mark.parametrize(
    "token",
    ["", "not-a-jwt", "a.b.c", None, 12345, {"uid": "someone"}, "x" * (MAX_TOKEN_LENGTH + 1)],
    ids=["empty", "garbage", "three-parts", "none", "number", "dict", "huge"],
)
def test_anything_that_is_not_a_token_is_refused(emulated_config, token):
    with pytest.raises(TokenRefused):
        verify_id_token(token, config=emulated_config)


def test_a_javascript_avatar_url_never_reaches_an_img(emulated_config):
    token = with_claims(google_token(), picture="javascript:alert(1)")
    assert verify_id_token(token, config=emulated_config).avatar == ""


# --- real mode: signed tokens, signature checked by firebase-admin ---------

def test_a_token_signed_by_google_is_accepted(real_config, google_signer):
    user = verify_id_token(google_signer.token(PROJECT, "taro"), config=real_config)
    assert (user.uid, user.email, user.is_anonymous) == ("taro", "taro@example.com", False)


def test_a_forged_signature_is_refused(real_config, google_signer):
    forger = Signer.create("attacker")
    # Signed with another key but claiming Google's key id.
    forged = forger.token(PROJECT, "taro", key_id=google_signer.key_id)
    with pytest.raises(TokenRefused, match="signature"):
        verify_id_token(forged, config=real_config)


def test_an_unsigned_emulator_style_token_is_refused_for_a_real_project(real_config, google_signer):
    _header, payload, _signature = google_signer.token(PROJECT, "taro").split(".")
    unsigned = f"eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.{payload}."
    with pytest.raises(TokenRefused, match="kid"):
        verify_id_token(unsigned, config=real_config)


def test_an_expired_signed_token_is_refused(real_config, google_signer):
    past = int(time.time()) - 7200
    with pytest.raises(TokenRefused, match="expired"):
        verify_id_token(google_signer.token(PROJECT, "taro", iat=past, exp=past + 3600), config=real_config)


def test_a_signed_token_of_another_project_is_refused(real_config, google_signer):
    with pytest.raises(TokenRefused, match="aud"):
        verify_id_token(google_signer.token("someone-elses-project"), config=real_config)


# --- an identity provider that stops answering ------------------------------


@pytest.fixture
def unanswering_provider():
    """A local TCP server that accepts connections and never answers (an outage of the provider)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    held: list[socket.socket] = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"127.0.0.1:{server.getsockname()[1]}"
    stop.set()
    thread.join()
    for connection in held:
        connection.close()
    server.close()


def test_a_provider_that_does_not_answer_is_an_outage_not_a_refused_token(emulated_config, unanswering_provider):
    token = google_token()  # a real token of the emulator: nothing wrong with it
    config = dataclasses.replace(emulated_config, emulator_host=unanswering_provider)
    with pytest.raises(VerificationUnavailable):
        verify_id_token(token, config=config, check_revoked=True)
    # The token itself is still good once the provider answers again.
    assert verify_id_token(token, config=emulated_config, check_revoked=True).uid == claims_of(token)["sub"]
