"""The console's tus endpoint (/admin/tus) against the site's real HTTP layer:
a real tus client (tuspy) uploads, resumes and is refused; raw requests
follow the protocol where a client would hide what is checked."""

from __future__ import annotations

import base64
import io
import json
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
from sqlmodel import select
from tusclient import client as tus
from tusclient.exceptions import TusCommunicationError
from tusclient.storage.filestorage import FileStorage

from manga_app.catalogue.models import AuditEntry
from tests.unit.accounts.emulator_accounts import anonymous_token, google_token

NAME = "ワンダー探偵 第1話.cbz"
PAYLOAD = bytes(range(256)) * 400  # 102,400 bytes


def _meta(name: str = NAME, **more: str) -> str:
    fields = {"filename": name, "filetype": "application/zip", **more}
    return ",".join(f"{key} {base64.b64encode(value.encode()).decode()}" for key, value in fields.items())


def _create(base: str, token: str, length: int, name: str = NAME) -> httpx.Response:
    return httpx.post(f"{base}/admin/tus", headers={
        "Authorization": f"Bearer {token}", "Tus-Resumable": "1.0.0", "Upload-Length": str(length),
        "Upload-Metadata": _meta(name)})


def _staged(tmp_path: Path) -> list[Path]:
    return sorted(p for p in (tmp_path / "data" / "uploads" / "staged").rglob("*") if p.is_file())


def test_an_operator_uploads_a_file_with_a_tus_client_and_it_is_staged(upload_site, operator_token, tmp_path, session):
    client = tus.TusClient(f"{upload_site}/admin/tus", headers={"Authorization": f"Bearer {operator_token}"})
    uploader = client.uploader(file_stream=io.BytesIO(PAYLOAD), chunk_size=16_384,
                               metadata={"filename": NAME, "filetype": "application/zip"})
    uploader.upload()
    staged = _staged(tmp_path)
    assert [p.name for p in staged] == [NAME]
    assert staged[0].read_bytes() == PAYLOAD
    entry = session.exec(select(AuditEntry).where(AuditEntry.action == "upload")).one()
    assert entry.target == f"staged {NAME}" and entry.after == f"{len(PAYLOAD)} bytes"


def test_a_dropped_folder_keeps_its_folders(upload_site, operator_token, tmp_path):
    client = tus.TusClient(f"{upload_site}/admin/tus", headers={"Authorization": f"Bearer {operator_token}"})
    client.uploader(file_stream=io.BytesIO(b"\xff\xd8 page"), metadata={
        "filename": "001.jpg", "filetype": "image/jpeg", "relativePath": "/探偵/第2話/001.jpg"}).upload()
    assert [p.relative_to(p.parents[2]).as_posix() for p in _staged(tmp_path)] == ["探偵/第2話/001.jpg"]


def test_an_upload_resumes_where_it_stopped_after_a_reload(upload_site, operator_token, tmp_path):
    """The page was reloaded after the first chunk: a new client with the same
    URL store (tus fingerprints, as Uppy keeps them) asks where it stopped and
    sends only the rest."""
    store = FileStorage(str(tmp_path / "urls.json"))
    source = tmp_path / NAME
    source.write_bytes(PAYLOAD)
    first = tus.TusClient(f"{upload_site}/admin/tus", headers={"Authorization": f"Bearer {operator_token}"})
    started = first.uploader(file_path=str(source), chunk_size=40_000, store_url=True, url_storage=store,
                             metadata={"filename": NAME, "filetype": "application/zip"})
    started.upload_chunk()
    assert started.offset == 40_000 and _staged(tmp_path) == []

    again = tus.TusClient(f"{upload_site}/admin/tus", headers={"Authorization": f"Bearer {operator_token}"})
    resumed = again.uploader(file_path=str(source), chunk_size=40_000, store_url=True, url_storage=store,
                             metadata={"filename": NAME, "filetype": "application/zip"})
    assert resumed.url == started.url and resumed.offset == 40_000
    resumed.upload()
    assert _staged(tmp_path)[0].read_bytes() == PAYLOAD
    store.close()


def test_a_connection_dropped_mid_chunk_keeps_what_arrived(upload_site, operator_token, tmp_path):
    created = _create(upload_site, operator_token, len(PAYLOAD))
    assert created.status_code == 201, created.text
    location = urlsplit(created.headers["Location"])
    with socket.create_connection((location.hostname, location.port)) as connection:
        connection.sendall((f"PATCH {location.path} HTTP/1.1\r\nHost: {location.netloc}\r\n"
                            f"Authorization: Bearer {operator_token}\r\nTus-Resumable: 1.0.0\r\n"
                            "Content-Type: application/offset+octet-stream\r\nUpload-Offset: 0\r\n"
                            f"Content-Length: {len(PAYLOAD)}\r\n\r\n").encode() + PAYLOAD[:60_000])
        time.sleep(1.0)  # the server reads what came, then the connection drops
    head = {"Authorization": f"Bearer {operator_token}", "Tus-Resumable": "1.0.0"}
    for _ in range(100):  # until the server notices the dropped connection
        offset = int(httpx.head(created.headers["Location"], headers=head).headers["Upload-Offset"])
        if offset:
            break
        time.sleep(0.05)
    assert 0 < offset <= 60_000
    rest = httpx.patch(created.headers["Location"], content=PAYLOAD[offset:], headers={
        **head, "Content-Type": "application/offset+octet-stream", "Upload-Offset": str(offset)})
    assert rest.status_code == 204, rest.text
    assert _staged(tmp_path)[0].read_bytes() == PAYLOAD


def test_a_file_over_the_size_limit_is_refused_before_a_byte_is_sent(upload_site, operator_token, tmp_path):
    client = tus.TusClient(f"{upload_site}/admin/tus", headers={"Authorization": f"Bearer {operator_token}"})
    uploader = client.uploader(file_stream=io.BytesIO(b"x" * 200_001), metadata={"filename": NAME, "filetype": "x"})
    with pytest.raises(TusCommunicationError) as refused:
        uploader.upload()
    assert refused.value.status_code == 413
    assert "larger than the 195.3 KB a file may be (UPLOAD_MAX_BYTES)" in refused.value.response_content.decode()
    assert _staged(tmp_path) == [] and not list((tmp_path / "data" / "uploads" / "incoming").glob("*"))


def test_an_upload_the_disk_cannot_hold_is_refused_with_507(upload_site, operator_token, configure):
    configure(UPLOAD_KEEP_FREE_BYTES=10**18)  # more than any disk has free
    refused = _create(upload_site, operator_token, 1000)
    assert refused.status_code == 507
    assert refused.text.startswith(f"Not enough free disk for {NAME} (1,000 bytes): ")


def test_a_file_that_is_no_comic_is_refused(upload_site, operator_token):
    refused = _create(upload_site, operator_token, 10, name="notes.txt")
    assert refused.status_code == 415
    assert refused.text.startswith("notes.txt is not a comic: upload CBZ/ZIP")


@pytest.mark.parametrize("who", ["nobody", "garbage", "guest", "reader"])
def test_anyone_but_an_operator_gets_404(upload_site, operator_token, tmp_path, who):
    tokens = {"nobody": "-", "guest": anonymous_token(), "reader": google_token(),
              "garbage": "not.a.token"}
    token = tokens[who]
    assert _create(upload_site, token, 10).status_code == 404
    created = _create(upload_site, operator_token, 10)
    location = created.headers["Location"]
    head = {"Authorization": f"Bearer {token}", "Tus-Resumable": "1.0.0"}
    assert httpx.head(location, headers=head).status_code == 404
    patch = httpx.patch(location, content=b"0123456789", headers={
        **head, "Content-Type": "application/offset+octet-stream", "Upload-Offset": "0"})
    assert patch.status_code == 404 and patch.text == "見つかりませんでした"
    assert httpx.request("OPTIONS", f"{upload_site}/admin/tus/", headers=head).status_code == 404
    assert _staged(tmp_path) == []


def test_an_upload_left_unfinished_past_its_expiry_is_swept(upload_site, operator_token, tmp_path):
    created = _create(upload_site, operator_token, len(PAYLOAD))
    uid = created.headers["Location"].rsplit("/", 1)[1]
    incoming = tmp_path / "data" / "uploads" / "incoming"
    info = json.loads((incoming / f"{uid}.info").read_text())
    (incoming / f"{uid}.info").write_text(json.dumps({**info, "expires": "Mon, 02 Jan 2006 15:04:05 GMT"}))
    kept = _create(upload_site, operator_token, len(PAYLOAD)).headers["Location"].rsplit("/", 1)[1]
    assert sorted(p.name for p in incoming.iterdir() if p.is_file()) == sorted([kept, f"{kept}.info"])


def _patch(location: str, token: str, offset: int, body: bytes) -> httpx.Response:
    return httpx.patch(location, content=body, headers={
        "Authorization": f"Bearer {token}", "Tus-Resumable": "1.0.0",
        "Content-Type": "application/offset+octet-stream", "Upload-Offset": str(offset)})


def _offset(location: str, token: str) -> int:
    head = httpx.head(location, headers={"Authorization": f"Bearer {token}", "Tus-Resumable": "1.0.0"})
    return int(head.headers["Upload-Offset"])


def test_the_offset_is_the_bytes_held_when_the_info_file_lags_them(upload_site, operator_token, tmp_path):
    """A crash of the machine can lose the .info written after a chunk (it is
    not fsynced): the upload continues from the bytes that are there."""
    location = _create(upload_site, operator_token, len(PAYLOAD)).headers["Location"]
    assert _patch(location, operator_token, 0, PAYLOAD[:40_000]).status_code == 204
    info = tmp_path / "data" / "uploads" / "incoming" / f"{location.rsplit('/', 1)[1]}.info"
    info.write_text(json.dumps({**json.loads(info.read_text()), "offset": 0}))
    assert _offset(location, operator_token) == 40_000
    assert _patch(location, operator_token, 40_000, PAYLOAD[40_000:]).status_code == 204
    assert _staged(tmp_path)[0].read_bytes() == PAYLOAD


def test_a_chunk_refused_for_running_past_the_length_leaves_a_resumable_upload(upload_site, operator_token, tmp_path):
    location = _create(upload_site, operator_token, 100_000).headers["Location"]
    refused = _patch(location, operator_token, 0, PAYLOAD)  # 102,400 bytes for 100,000
    assert refused.status_code == 400 and "exceed" in refused.text
    offset = _offset(location, operator_token)
    assert offset < 100_000
    assert _patch(location, operator_token, offset, PAYLOAD[offset:100_000]).status_code == 204
    assert _staged(tmp_path)[0].read_bytes() == PAYLOAD[:100_000]


@pytest.mark.parametrize("field,name", [("filename", "../evil 第1話.cbz"), ("relativePath", "a/../../evil/第1話.cbz"),
                                        ("relativePath", "/../evil/第1話.cbz"), ("filename", ".hidden.cbz")])
def test_a_name_that_would_leave_the_staging_folder_is_refused_before_a_byte(upload_site, operator_token, tmp_path,
                                                                             field, name):
    meta = _meta("第1話.cbz", **{field: name}) if field != "filename" else _meta(name)
    refused = httpx.post(f"{upload_site}/admin/tus", headers={
        "Authorization": f"Bearer {operator_token}", "Tus-Resumable": "1.0.0", "Upload-Length": "10",
        "Upload-Metadata": meta})
    assert refused.status_code == 400 and "is not a name the server can keep" in refused.text, refused.text
    assert [p for p in tmp_path.rglob("*") if p.is_file() and "evil" in p.name + str(p.parent)] == []
    assert not (tmp_path / "data" / "uploads" / "incoming").exists() or not any(
        (tmp_path / "data" / "uploads" / "incoming").glob("*.info"))
