"""Tests for manga_app.core.crypto.

Reference ciphertexts are produced independently of the module under test:
either hard-coded (generated once with the OpenSSL CLI) or computed here with
`cryptography`'s low-level Cipher/padding API directly.
"""

from __future__ import annotations

import base64
import logging
import os

import pytest
from cryptography.hazmat.primitives import padding
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from manga_app.core.crypto import decode_key, decrypt_text, encrypt_text

LOGGER_NAME = "manga_app.core.crypto"

KEY_128 = bytes.fromhex("2b7e151628aed2a6abf7158809cf4f3c")
KEY_192 = bytes.fromhex("8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b")
KEY_256 = bytes.fromhex(
    "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a30914dff4"
)
IV = bytes(range(16))
IV_B64 = "AAECAwQFBgcICQoLDA0ODw=="


def b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def b64url_nopad(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def reference_encrypt(plaintext: bytes, key: bytes, iv: bytes) -> bytes:
    """AES-CBC/PKCS7 straight from `cryptography`, bypassing encrypt_text."""
    padder = padding.PKCS7(128).padder()
    padded = padder.update(plaintext) + padder.finalize()
    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return encryptor.update(padded) + encryptor.finalize()


def raw_encrypt_unpadded(data: bytes, key: bytes, iv: bytes) -> bytes:
    """Encrypt block-aligned data with NO padding (to produce bad padding)."""
    encryptor = Cipher(algorithms.AES(key), modes.CBC(iv)).encryptor()
    return encryptor.update(data) + encryptor.finalize()


def assert_failure_logged(caplog: pytest.LogCaptureFixture) -> None:
    records = [r for r in caplog.records if r.name == LOGGER_NAME]
    assert records, "expected an error log from manga_app.core.crypto"
    assert all(r.levelno == logging.ERROR for r in records)
    assert records[-1].getMessage().startswith("Decryption failed:")


# --------------------------------------------------------------------------
# decode_key
# --------------------------------------------------------------------------

KEY_ENCODINGS = [
    pytest.param(KEY_128.hex(), KEY_128, id="hex-128"),
    pytest.param(KEY_192.hex(), KEY_192, id="hex-192"),
    pytest.param(KEY_256.hex(), KEY_256, id="hex-256"),
    pytest.param(KEY_256.hex().upper(), KEY_256, id="hex-256-upper"),
    pytest.param(f"  {KEY_128.hex()}\n", KEY_128, id="hex-128-whitespace"),
    pytest.param(b64(KEY_128), KEY_128, id="b64-128"),
    pytest.param(b64(KEY_192), KEY_192, id="b64-192"),
    pytest.param(b64(KEY_256), KEY_256, id="b64-256"),
    pytest.param(b64url_nopad(KEY_128), KEY_128, id="b64url-nopad-128"),
    pytest.param(b64url_nopad(KEY_192), KEY_192, id="b64url-nopad-192"),
    pytest.param(b64url_nopad(KEY_256), KEY_256, id="b64url-nopad-256"),
    pytest.param(
        base64.urlsafe_b64encode(KEY_256).decode(), KEY_256, id="b64url-padded-256"
    ),
    # Bytes chosen so the encodings really contain '+', '/', '-' and '_'.
    pytest.param(b64(b"\xfb\xff" * 8), b"\xfb\xff" * 8, id="b64-plus-slash"),
    pytest.param(b64url_nopad(b"\xfb\xff" * 8), b"\xfb\xff" * 8, id="b64url-dash-underscore"),
]


@pytest.mark.parametrize(("encoded", "expected"), KEY_ENCODINGS)
def test_decode_key_valid(encoded: str, expected: bytes) -> None:
    assert decode_key(encoded) == expected


def test_decode_key_fixtures_cover_both_alphabets() -> None:
    assert set("+/") <= set(b64(b"\xfb\xff" * 8))
    assert set("-_") <= set(b64url_nopad(b"\xfb\xff" * 8))


@pytest.mark.parametrize(
    ("encoded", "expected"),
    [
        # 32 hex digits are also valid base64 (24 bytes): hex wins.
        pytest.param("ab" * 16, b"\xab" * 16, id="32-chars-hex-wins"),
        # 64 'A's would be base64 for 48 zero bytes, but it is hex first.
        pytest.param("A" * 64, b"\xaa" * 32, id="64-chars-hex-wins"),
        # 32 non-hex base64 characters decode as a 192-bit key.
        pytest.param("zz" * 16, base64.b64decode("zz" * 16), id="32-chars-non-hex-is-b64"),
    ],
)
def test_decode_key_hex_takes_priority(encoded: str, expected: bytes) -> None:
    assert decode_key(encoded) == expected


@pytest.mark.parametrize(
    "encoded",
    [
        pytest.param("", id="empty"),
        pytest.param("   ", id="blank"),
        pytest.param("00" * 15, id="hex-15-bytes"),
        pytest.param("00" * 33, id="hex-33-bytes"),
        pytest.param("g" * 31, id="b64-23-bytes"),
        pytest.param(b64(os.urandom(8)), id="b64-8-bytes"),
        pytest.param(b64(bytes(20)), id="b64-20-bytes"),
        pytest.param(b64(b"\xff" * 48), id="b64-48-bytes"),
        pytest.param("not a key!!", id="garbage"),
        pytest.param("A", id="b64-impossible-length"),
        pytest.param(b64(KEY_128)[:-3] + "*==", id="b64-bad-char"),
        pytest.param(None, id="none"),
        pytest.param(KEY_128, id="bytes-not-str"),
    ],
)
def test_decode_key_invalid(encoded: object) -> None:
    with pytest.raises(ValueError):
        decode_key(encoded)  # type: ignore[arg-type]


# --------------------------------------------------------------------------
# decrypt_text: fixed known-answer vectors (generated with the OpenSSL CLI)
# --------------------------------------------------------------------------

# printf '<text>' | openssl enc -aes-<bits>-cbc -K <hex key> -iv 000102..0f | base64
OPENSSL_VECTORS = [
    pytest.param("2GZuqKrWXMCDVLS8Q9T/Vg==", KEY_128, "hello", id="openssl-128-ascii"),
    pytest.param(
        "HleXTb85y2YNe+lKiWuskAIEqDjWXWNBrXhuvWXFfiQ=",
        KEY_256,
        "こんにちは、漫画!",
        id="openssl-256-japanese",
    ),
]


@pytest.mark.parametrize(("ciphertext_b64", "key", "expected"), OPENSSL_VECTORS)
def test_decrypt_text_openssl_vectors(ciphertext_b64: str, key: bytes, expected: str) -> None:
    assert decrypt_text(ciphertext_b64, key.hex(), IV_B64) == expected
    assert decrypt_text(ciphertext_b64, b64url_nopad(key), IV_B64) == expected


@pytest.mark.parametrize(("ciphertext_b64", "key", "expected"), OPENSSL_VECTORS)
def test_encrypt_text_matches_openssl(ciphertext_b64: str, key: bytes, expected: str) -> None:
    assert encrypt_text(expected, key.hex(), iv=IV) == (ciphertext_b64, IV_B64)


# --------------------------------------------------------------------------
# decrypt_text: vectors computed with `cryptography` directly
# --------------------------------------------------------------------------

PLAINTEXTS = [
    pytest.param("", id="empty"),
    pytest.param("a", id="one-char"),
    pytest.param("0123456789abcdef", id="exact-block"),
    pytest.param('{"pages": ["001.webp", "002.webp"]}', id="json-manifest"),
    pytest.param("第1話 はじまりの物語 🎉", id="japanese-emoji"),
]

KEY_FORMS = [
    pytest.param(KEY_128, bytes.hex, id="128-hex"),
    pytest.param(KEY_192, bytes.hex, id="192-hex"),
    pytest.param(KEY_256, bytes.hex, id="256-hex"),
    pytest.param(KEY_128, b64, id="128-b64"),
    pytest.param(KEY_192, b64, id="192-b64"),
    pytest.param(KEY_256, b64, id="256-b64"),
    pytest.param(KEY_128, b64url_nopad, id="128-b64url-nopad"),
    pytest.param(KEY_192, b64url_nopad, id="192-b64url-nopad"),
    pytest.param(KEY_256, b64url_nopad, id="256-b64url-nopad"),
]


@pytest.mark.parametrize(("key", "encode_key"), KEY_FORMS)
@pytest.mark.parametrize("plaintext", PLAINTEXTS)
def test_decrypt_text_reference_vectors(plaintext: str, key: bytes, encode_key) -> None:
    iv = os.urandom(16)
    ciphertext = reference_encrypt(plaintext.encode("utf-8"), key, iv)
    assert decrypt_text(b64(ciphertext), encode_key(key), b64(iv)) == plaintext


@pytest.mark.parametrize(
    ("encode_ct", "encode_iv"),
    [
        pytest.param(b64, b64, id="standard"),
        pytest.param(b64url_nopad, b64url_nopad, id="urlsafe-nopad"),
        pytest.param(
            lambda d: base64.urlsafe_b64encode(d).decode(),
            lambda d: base64.urlsafe_b64encode(d).decode(),
            id="urlsafe-padded",
        ),
    ],
)
def test_decrypt_text_accepts_urlsafe_ciphertext_and_iv(encode_ct, encode_iv) -> None:
    # Fixed IV with high bytes so its encoding contains '-'/'_' or '+'/'/'.
    iv = bytes([0xFB, 0xFF] * 8)
    plaintext = "漫画マニフェスト" * 5
    ciphertext = reference_encrypt(plaintext.encode("utf-8"), KEY_256, iv)
    assert decrypt_text(encode_ct(ciphertext), KEY_256.hex(), encode_iv(iv)) == plaintext


# --------------------------------------------------------------------------
# encrypt_text
# --------------------------------------------------------------------------


@pytest.mark.parametrize(("key", "encode_key"), KEY_FORMS)
@pytest.mark.parametrize("plaintext", PLAINTEXTS)
def test_encrypt_text_round_trip(plaintext: str, key: bytes, encode_key) -> None:
    ciphertext_b64, iv_b64 = encrypt_text(plaintext, encode_key(key))
    assert len(base64.b64decode(iv_b64, validate=True)) == 16
    assert decrypt_text(ciphertext_b64, encode_key(key), iv_b64) == plaintext


@pytest.mark.parametrize(("key", "encode_key"), KEY_FORMS)
def test_encrypt_text_matches_reference(key: bytes, encode_key) -> None:
    plaintext = "参照ベクトル"
    iv = os.urandom(16)
    expected = reference_encrypt(plaintext.encode("utf-8"), key, iv)
    assert encrypt_text(plaintext, encode_key(key), iv=iv) == (b64(expected), b64(iv))


def test_encrypt_text_uses_fresh_random_iv() -> None:
    first = encrypt_text("same text", KEY_128.hex())
    second = encrypt_text("same text", KEY_128.hex())
    assert first[1] != second[1]
    assert first[0] != second[0]


@pytest.mark.parametrize(
    ("key", "iv"),
    [
        pytest.param("00" * 15, None, id="bad-key"),
        pytest.param(KEY_128.hex(), bytes(15), id="iv-15-bytes"),
        pytest.param(KEY_128.hex(), bytes(17), id="iv-17-bytes"),
        pytest.param(KEY_128.hex(), b"", id="iv-empty"),
    ],
)
def test_encrypt_text_rejects_bad_input(key: str, iv: bytes | None) -> None:
    with pytest.raises(ValueError):
        encrypt_text("text", key, iv=iv)


# --------------------------------------------------------------------------
# decrypt_text failures: '' + error log
# --------------------------------------------------------------------------

GOOD_CT = b64(reference_encrypt("秘密のマニフェスト".encode("utf-8"), KEY_128, IV))


def _bad_padding_ct() -> str:
    # Last plaintext byte 0x00 is never valid PKCS7 padding.
    return b64(raw_encrypt_unpadded(b"A" * 15 + b"\x00", KEY_128, IV))


def _inconsistent_padding_ct() -> str:
    # Claims 4 bytes of padding but the preceding bytes are not 0x04.
    return b64(raw_encrypt_unpadded(b"B" * 13 + b"\x01\x02\x04", KEY_128, IV))


def _invalid_utf8_ct() -> str:
    return b64(reference_encrypt(b"\xff\xfe\xfd", KEY_128, IV))


FAILURE_CASES = [
    # wrong key (same size, different value); deterministic with a fixed IV
    pytest.param(GOOD_CT, KEY_192[:16].hex(), IV_B64, id="wrong-key-128"),
    pytest.param(GOOD_CT, KEY_256.hex(), IV_B64, id="wrong-key-size-256"),
    # invalid keys
    pytest.param(GOOD_CT, "", IV_B64, id="empty-key"),
    pytest.param(GOOD_CT, "00" * 15, IV_B64, id="short-hex-key"),
    pytest.param(GOOD_CT, "not a key!", IV_B64, id="garbage-key"),
    # padding / plaintext problems
    pytest.param(_bad_padding_ct(), KEY_128.hex(), IV_B64, id="bad-padding-zero"),
    pytest.param(_inconsistent_padding_ct(), KEY_128.hex(), IV_B64, id="bad-padding-inconsistent"),
    pytest.param(_invalid_utf8_ct(), KEY_128.hex(), IV_B64, id="invalid-utf8"),
    # ciphertext encoding / length
    pytest.param("!!!not base64!!!", KEY_128.hex(), IV_B64, id="bad-b64-ciphertext"),
    pytest.param("A", KEY_128.hex(), IV_B64, id="b64-impossible-length-ciphertext"),
    pytest.param("", KEY_128.hex(), IV_B64, id="empty-ciphertext"),
    pytest.param(b64(bytes(15)), KEY_128.hex(), IV_B64, id="ciphertext-not-block-aligned"),
    pytest.param(GOOD_CT[:-4], KEY_128.hex(), IV_B64, id="truncated-ciphertext"),
    # IV encoding / length
    pytest.param(GOOD_CT, KEY_128.hex(), "@@@@", id="bad-b64-iv"),
    pytest.param(GOOD_CT, KEY_128.hex(), "", id="empty-iv"),
    pytest.param(GOOD_CT, KEY_128.hex(), b64(bytes(8)), id="iv-8-bytes"),
    pytest.param(GOOD_CT, KEY_128.hex(), b64(bytes(15)), id="iv-15-bytes"),
    pytest.param(GOOD_CT, KEY_128.hex(), b64(bytes(17)), id="iv-17-bytes"),
    pytest.param(GOOD_CT, KEY_128.hex(), b64(bytes(32)), id="iv-32-bytes"),
    # wrong types must not raise either
    pytest.param(None, KEY_128.hex(), IV_B64, id="none-ciphertext"),
    pytest.param(GOOD_CT, None, IV_B64, id="none-key"),
    pytest.param(GOOD_CT, KEY_128.hex(), None, id="none-iv"),
    pytest.param(GOOD_CT.encode(), KEY_128.hex(), IV_B64, id="bytes-ciphertext"),
]


def test_good_ciphertext_fixture_decrypts() -> None:
    assert decrypt_text(GOOD_CT, KEY_128.hex(), IV_B64) == "秘密のマニフェスト"


@pytest.mark.parametrize(("ciphertext_b64", "key", "iv_b64"), FAILURE_CASES)
def test_decrypt_text_failures_return_empty_and_log(
    ciphertext_b64: object, key: object, iv_b64: object, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.ERROR, logger=LOGGER_NAME)
    assert decrypt_text(ciphertext_b64, key, iv_b64) == ""  # type: ignore[arg-type]
    assert_failure_logged(caplog)


def test_decrypt_text_success_does_not_log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger=LOGGER_NAME)
    assert decrypt_text(GOOD_CT, KEY_128.hex(), IV_B64) == "秘密のマニフェスト"
    assert not [r for r in caplog.records if r.name == LOGGER_NAME]


def test_decrypt_text_log_does_not_leak_key(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.ERROR, logger=LOGGER_NAME)
    wrong_key = KEY_256.hex()
    assert decrypt_text(GOOD_CT, wrong_key, IV_B64) == ""
    assert wrong_key not in caplog.text
    assert b64(KEY_256) not in caplog.text
