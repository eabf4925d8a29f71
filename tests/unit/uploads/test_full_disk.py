"""A disk that fills while a file is being uploaded, for real: the uploads
folder on a small tmpfs the test mounts (the tests run as root, as CI does),
filled after the upload started (the check before the first byte passed).
The chunk is refused with 507 and an English sentence saying so, what
arrived is kept and nothing is staged, and once space is freed the upload
continues where it stopped."""

from __future__ import annotations

import os

import httpx

from tests.unit.catalogue.test_full_disk import filled, small_filesystem

from .test_tus_endpoint import _create, _offset, _patch, _staged

MB = 1024 * 1024


def test_a_disk_that_fills_during_an_upload_refuses_the_chunk_and_the_upload_continues_after(
        upload_site, operator_token, tmp_path, configure):
    configure(UPLOAD_KEEP_FREE_BYTES=0, UPLOAD_MAX_BYTES=8 * MB)
    payload = os.urandom(3 * MB)
    with small_filesystem(tmp_path / "data" / "uploads", 4) as mount:
        location = _create(upload_site, operator_token, len(payload)).headers["Location"]
        assert _patch(location, operator_token, 0, payload[:MB]).status_code == 204
        with filled(mount, leave=256 * 1024):
            refused = _patch(location, operator_token, MB, payload[MB:])
            assert refused.status_code == 507, refused.text
            assert refused.text.startswith("The disk is full: ")
            held = _offset(location, operator_token)
            assert MB <= held < 2 * MB and _staged(tmp_path) == []
        assert _patch(location, operator_token, held, payload[held:]).status_code == 204
        assert _staged(tmp_path)[0].read_bytes() == payload
        assert httpx.get(f"{upload_site}/ping").status_code in (200, 404)  # the server still answers
