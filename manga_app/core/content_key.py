"""The content key that encrypts chapter manifests: a dev default and a validator.

A leaked or placeholder key makes the encryption pointless, so placeholders
and well-known example keys are refused everywhere, not only in production.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from manga_app.core.crypto import decode_key

__all__ = [
    "DEFAULT_KEY_PATH",
    "EXAMPLE_CONTENT_KEY",
    "ensure_dev_content_key",
    "validate_content_key",
]

DEFAULT_KEY_PATH = Path(__file__).resolve().parents[2] / "data" / "content_key"
# The example shown in documentation: recognisable, and therefore refused.
EXAMPLE_CONTENT_KEY = bytes(range(32)).hex()
_PLACEHOLDERS = frozenset(
    {"changeme", "change-me", "change_me", "secret", "example", "your-key-here", "xxx", "todo"}
)
# Published test vectors (FIPS-197 / NIST SP 800-38A) that end up copied into configs.
_KNOWN_KEYS = frozenset(
    {
        bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c"),
        bytes.fromhex("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b"),
        bytes.fromhex("603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"),
        bytes.fromhex(EXAMPLE_CONTENT_KEY),
        bytes.fromhex(EXAMPLE_CONTENT_KEY[:32]),
    }
)


def validate_content_key(key: str) -> str:
    """Return the key (stripped) if usable; ValueError with the reason otherwise."""
    if not isinstance(key, str) or not key.strip():
        raise ValueError(
            "content key is empty; set CONTENT_KEY to 32 random bytes as hex or base64"
        )
    text = key.strip()
    if text.lower() in _PLACEHOLDERS:
        raise ValueError(f"content key is a placeholder ({text!r}); generate a random one")
    try:
        raw = decode_key(text)
    except ValueError as exc:
        raise ValueError(
            f"content key is malformed: {exc}; expected 16, 24 or 32 bytes as hex or base64"
        ) from None
    if len(set(raw)) == 1:
        raise ValueError("content key repeats one byte (e.g. all zeros); generate a random one")
    if raw in _KNOWN_KEYS:
        raise ValueError("content key is a published example key; generate a random one")
    return text


def ensure_dev_content_key(path: Path = DEFAULT_KEY_PATH) -> str:
    """Read the local development key, creating a random one (mode 0600) on first use."""
    path = Path(path)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            # O_EXCL: two processes starting together must not both write a key.
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass
        else:
            with os.fdopen(fd, "w", encoding="ascii") as handle:
                handle.write(secrets.token_hex(32) + "\n")
    os.chmod(path, 0o600)
    return validate_content_key(path.read_text(encoding="ascii"))
