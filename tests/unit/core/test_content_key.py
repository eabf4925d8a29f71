"""Content keys: a random development key created once, and refusal of placeholders."""

from __future__ import annotations

import base64
import stat

import pytest

from manga_app.core.content_key import EXAMPLE_CONTENT_KEY, ensure_dev_content_key, validate_content_key
from manga_app.core.crypto import decode_key


def test_the_dev_key_is_created_once_with_mode_0600_and_then_reused(tmp_path):
    path = tmp_path / "data" / "content_key"
    key = ensure_dev_content_key(path)
    assert len(decode_key(key)) == 32
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert ensure_dev_content_key(path) == key


def test_a_dev_key_file_holding_a_placeholder_is_refused(tmp_path):
    path = tmp_path / "content_key"
    path.write_text("changeme\n")
    with pytest.raises(ValueError, match="placeholder"):
        ensure_dev_content_key(path)


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("changeme", "placeholder"),
        ("", "empty"),
        ("00" * 32, "repeats one byte"),
        (base64.b64encode(bytes(32)).decode(), "repeats one byte"),
        (EXAMPLE_CONTENT_KEY, "published example key"),
        (
            "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4",
            "published example key",
        ),
        ("not a key!", "malformed"),
        ("abcd", "malformed"),
    ],
)
def test_placeholder_and_malformed_keys_are_refused_with_a_reason(key, message):
    with pytest.raises(ValueError, match=message):
        validate_content_key(key)


def test_random_hex_and_url_safe_base64_keys_are_accepted():
    raw = bytes(range(100, 132))
    assert validate_content_key(raw.hex()) == raw.hex()
    url_safe = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    assert validate_content_key(f" {url_safe} ") == url_safe
