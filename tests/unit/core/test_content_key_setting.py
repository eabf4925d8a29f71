"""CONTENT_KEY is validated at start-up; without it a local key is made once."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from manga_app.core.config import Settings, content_key
from manga_app.core.crypto import decode_key


def test_without_content_key_a_random_local_key_is_created_once(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path, content_key=None)
    first = content_key(settings)
    assert len(decode_key(first)) == 32
    assert content_key(settings) == first
    assert stat.S_IMODE((tmp_path / "content_key").stat().st_mode) == 0o600


def test_two_fresh_checkouts_get_different_keys(tmp_path: Path) -> None:
    assert content_key(Settings(data_dir=tmp_path / "a")) != content_key(Settings(data_dir=tmp_path / "b"))


@pytest.mark.parametrize(
    "value", ["changeme", "00" * 32, "not-a-key", bytes(range(32)).hex()], ids=["placeholder", "all-zero", "malformed", "doc-example"]
)
def test_a_placeholder_or_malformed_content_key_is_refused(tmp_path: Path, value: str) -> None:
    with pytest.raises(ValueError, match="content key"):
        content_key(Settings(data_dir=tmp_path, content_key=value))


def test_a_real_content_key_is_used_as_given(tmp_path: Path) -> None:
    key = "9f" * 16 + "3a" * 16
    assert content_key(Settings(data_dir=tmp_path, content_key=key)) == key
    assert not (tmp_path / "content_key").exists()
