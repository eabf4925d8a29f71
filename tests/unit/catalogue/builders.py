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


def touch_later(path: Path, seconds: int = 10) -> None:
    info = path.stat()
    os.utime(path, ns=(info.st_atime_ns, info.st_mtime_ns + seconds * 1_000_000_000))


def _zstd(data: bytes, tmp: Path) -> bytes:
    """A Zstandard frame of `data`, written by libarchive's raw zstd filter."""
    import libarchive

    out = tmp / "frame.zst"
    with libarchive.file_writer(str(out), "raw", "zstd") as writer:
        writer.add_file_from_memory("data", len(data), data)
    frame = out.read_bytes()
    out.unlink()
    return frame


def write_zstd_zip(path: Path, pages: dict[str, bytes]) -> Path:
    """A ZIP whose entries use method 93 (Zstandard), which zipfile cannot write, by hand."""
    path.parent.mkdir(parents=True, exist_ok=True)
    body, central = b"", b""
    for name, data in pages.items():
        packed, raw_name, crc = _zstd(data, path.parent), name.encode(), zlib.crc32(data)
        fields = struct.pack("<HHHHHIII", 63, 0, 93, 0, 0x21, crc, len(packed), len(data))
        central += (
            b"PK\x01\x02" + struct.pack("<H", 63) + fields
            + struct.pack("<HHHHHII", len(raw_name), 0, 0, 0, 0, 0, len(body)) + raw_name
        )  # fmt: skip
        body += b"PK\x03\x04" + fields + struct.pack("<HH", len(raw_name), 0) + raw_name + packed
    count = len(pages)
    end = b"PK\x05\x06" + struct.pack("<HHHHIIH", 0, 0, count, count, len(central), len(body), 0)
    path.write_bytes(body + central + end)
    return path
