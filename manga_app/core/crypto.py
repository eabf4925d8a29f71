"""AES-CBC helpers for encrypted manifests (the spec's decryption helper,
docs/spec.md section 7).

The server publishes manifests encrypted with AES-CBC + PKCS7 and ships the
ciphertext and IV as base64. Keys come from configuration as hex or base64
(standard or URL-safe, padding optional), so parsing is lenient about the
encoding but strict about the resulting key length.
"""

from __future__ import annotations

import base64
import binascii
import logging
import os
import string

from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

__all__ = ["decode_key", "encrypt_text", "decrypt_text"]

logger = logging.getLogger(__name__)

AES_KEY_SIZES = (16, 24, 32)
BLOCK_SIZE = 16  # AES block size and CBC IV size, in bytes

_HEX_DIGITS = frozenset(string.hexdigits)
_URLSAFE_TO_STANDARD = str.maketrans("-_", "+/")


def _b64decode_lenient(text: str) -> bytes:
    """Decode standard or URL-safe base64, with or without ``=`` padding.

    Whitespace around the value is ignored; any other non-alphabet character
    raises ``ValueError``.
    """
    if not isinstance(text, str):
        raise ValueError("base64 value must be a string")
    body = text.strip().translate(_URLSAFE_TO_STANDARD).rstrip("=")
    body += "=" * (-len(body) % 4)
    try:
        return base64.b64decode(body, validate=True)
    except binascii.Error as exc:
        raise ValueError(f"invalid base64: {exc}") from None


def decode_key(key: str) -> bytes:
    """Decode an AES key given as hex or base64 into 16, 24 or 32 raw bytes.

    Hex is tried first when the string is 32, 48 or 64 hex digits. This
    matters for 32-character strings, which could also be base64 for a
    24-byte key; a random base64 key consisting only of hex digits is
    astronomically unlikely, so hex wins. Everything else is decoded as
    standard or URL-safe base64 (padding optional).

    Raises ``ValueError`` if the input is not a valid AES key.
    """
    if not isinstance(key, str):
        raise ValueError("key must be a string")
    text = key.strip()
    if len(text) in (2 * n for n in AES_KEY_SIZES) and set(text) <= _HEX_DIGITS:
        return bytes.fromhex(text)
    raw = _b64decode_lenient(text)
    if len(raw) not in AES_KEY_SIZES:
        raise ValueError(f"AES key must be 16, 24 or 32 bytes, got {len(raw)}")
    return raw


def encrypt_text(
    plaintext: str, key: str, iv: bytes | None = None
) -> tuple[str, str]:
    """Encrypt UTF-8 text with AES-CBC/PKCS7.

    Returns ``(ciphertext_b64, iv_b64)`` in standard padded base64. A fresh
    random IV is generated unless one is given (only tests should pass one:
    reusing an IV with the same key leaks plaintext structure).

    Raises ``ValueError`` for an invalid key or an IV that is not 16 bytes.
    """
    raw_key = decode_key(key)
    if iv is None:
        iv = os.urandom(BLOCK_SIZE)
    if len(iv) != BLOCK_SIZE:
        raise ValueError(f"IV must be {BLOCK_SIZE} bytes, got {len(iv)}")

    padder = padding.PKCS7(BLOCK_SIZE * 8).padder()
    padded = padder.update(plaintext.encode("utf-8")) + padder.finalize()
    encryptor = Cipher(algorithms.AES(raw_key), modes.CBC(iv)).encryptor()
    ciphertext = encryptor.update(padded) + encryptor.finalize()
    return (
        base64.b64encode(ciphertext).decode("ascii"),
        base64.b64encode(iv).decode("ascii"),
    )


def decrypt_text(ciphertext_b64: str, key: str, iv_b64: str) -> str:
    """Decrypt AES-CBC/PKCS7 base64 ciphertext back to UTF-8 text.

    ``key`` is hex or base64 (URL-safe accepted); ``iv_b64`` and
    ``ciphertext_b64`` are standard or URL-safe base64, padding optional.

    Never raises: any failure (bad key, bad base64, wrong IV length, bad
    padding, invalid UTF-8, ...) is logged at ERROR level with a message
    starting with ``'Decryption failed:'`` and ``''`` is returned, so a
    corrupt manifest degrades to "no content" instead of a server error.
    Key material and data are never included in the log message.
    """
    try:
        raw_key = decode_key(key)
        iv = _b64decode_lenient(iv_b64)
        if len(iv) != BLOCK_SIZE:
            raise ValueError(f"IV must be {BLOCK_SIZE} bytes, got {len(iv)}")
        ciphertext = _b64decode_lenient(ciphertext_b64)
        if not ciphertext or len(ciphertext) % BLOCK_SIZE:
            raise ValueError(
                f"ciphertext length must be a positive multiple of {BLOCK_SIZE}"
            )

        decryptor = Cipher(algorithms.AES(raw_key), modes.CBC(iv)).decryptor()
        padded = decryptor.update(ciphertext) + decryptor.finalize()
        unpadder = padding.PKCS7(BLOCK_SIZE * 8).unpadder()
        data = unpadder.update(padded) + unpadder.finalize()
        return data.decode("utf-8")
    except Exception as exc:  # noqa: BLE001 - contract: never raise
        logger.error("Decryption failed: %s: %s", type(exc).__name__, exc)
        return ""
