"""Small real inputs for the catalogue tests: images, CBZ archives, folders, bombs."""

from __future__ import annotations

import io
import os
import struct
import zipfile
import zlib
from pathlib import Path

from PIL import Image

FIXTURES = Path(__file__).resolve().parents[4] / "shared" / "fixtures" / "komga"


def image_bytes(color=(200, 30, 30), size=(40, 60), fmt="PNG") -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format=fmt)
    return out.getvalue()


def distinct_pages(count: int, *, seed: int = 0, fmt: str = "PNG") -> list[bytes]:
    """`count` images with different bytes (so each gets its own media key)."""
    return [
        image_bytes(((seed * 37 + i * 11) % 256, (seed * 13) % 256, i % 256), fmt=fmt)
        for i in range(count)
    ]


def write_cbz(
    path: Path, pages: dict[str, bytes], *, comicinfo: str | None = None, extra=None
) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in pages.items():
            archive.writestr(name, data)
        if comicinfo is not None:
            archive.writestr("ComicInfo.xml", comicinfo)
        for name, data in (extra or {}).items():
            archive.writestr(name, data)
    return path


def write_folder(path: Path, pages: dict[str, bytes]) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    for name, data in pages.items():
        (path / name).write_bytes(data)
    return path


def comicinfo_xml(**fields: str) -> str:
    body = "".join(f"<{k}>{v}</{k}>" for k, v in fields.items())
    return f'<?xml version="1.0"?><ComicInfo>{body}</ComicInfo>'


def zip_bomb(path: Path, *, megabytes: int = 80) -> Path:
    """A page entry that inflates ~1000:1 (zeros) past the 64 MiB entry limit."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("001.png", image_bytes())
        archive.writestr("002.png", bytes(megabytes * 1024 * 1024))
    return path


def bomb_png(width: int = 50_000, height: int = 50_000) -> bytes:
    """A tiny PNG whose header claims a huge image (a decompression bomb)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    idat = zlib.compress(b"\x00" * 16)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")
    )


def patch_compression_method(path: Path, method: int) -> Path:
    """Rewrite every entry's compression method (local and central headers) to `method`."""
    data = bytearray(path.read_bytes())
    for signature, offset in ((b"PK\x03\x04", 8), (b"PK\x01\x02", 10)):
        start = 0
        while (index := data.find(signature, start)) != -1:
            data[index + offset : index + offset + 2] = struct.pack("<H", method)
            start = index + 4
    path.write_bytes(bytes(data))
    return path


def touch_later(path: Path, seconds: int = 10) -> None:
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + seconds * 1_000_000_000))
