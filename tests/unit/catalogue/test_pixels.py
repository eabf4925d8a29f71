"""media.py: every kind of page looks like its source once published.

Each source is generated with Pillow in one colour mode; the reader derivative
the site serves is compared with what the source looks like (transparency on
white, 16-bit scaled to 8-bit): its mean colour and a downscaled thumbnail.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat, PngImagePlugin

from manga_app.catalogue.media import MediaStore, WriteLog, reader_path, store_page_detached

SIZE = (300, 450)
MEAN_TOLERANCE = 6  # per channel, 0..255: lossy WebP
THUMB_TOLERANCE = 24  # per pixel of a 6x9 thumbnail


def _pattern() -> Image.Image:
    """Four coloured bands and a dark stripe: a page that is neither blank nor uniform."""
    image = Image.new("RGB", SIZE, (240, 235, 220))
    colours = [(200, 40, 40), (40, 160, 60), (40, 60, 200), (30, 30, 30)]
    for index, colour in enumerate(colours):
        image.paste(colour, (0, 60 + index * 90, SIZE[0], 110 + index * 90))
    image.paste((250, 250, 250), (100, 0, 160, SIZE[1]))
    return image


def _encode(image: Image.Image, fmt: str, **params) -> bytes:
    out = io.BytesIO()
    image.save(out, format=fmt, **params)
    return out.getvalue()


def _on_white(image: Image.Image) -> Image.Image:
    rgba = image.convert("RGBA")
    flat = Image.new("RGB", rgba.size, (255, 255, 255))
    flat.paste(rgba, mask=rgba.getchannel("A"))
    return flat


def _gray16() -> tuple[bytes, Image.Image]:
    gray = _pattern().convert("L")
    wide = Image.new("I;16", SIZE)
    wide.putdata([value * 257 for value in gray.get_flattened_data()])
    return _encode(wide, "PNG"), gray.convert("RGB")


def _rgb16() -> tuple[bytes, Image.Image]:
    """A 16-bit-per-channel RGB PNG, written by hand (Pillow writes RGB at 8 bits)."""
    import struct
    import zlib

    source = _pattern()
    rows = []
    for y in range(SIZE[1]):
        row = bytearray(b"\0")
        for x in range(SIZE[0]):
            for channel in source.getpixel((x, y)):
                row += struct.pack(">H", channel * 257)
        rows.append(bytes(row))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", SIZE[0], SIZE[1], 16, 2, 0, 0, 0)
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
    png += chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b"")
    return png, source


def _cmyk() -> tuple[bytes, Image.Image]:
    cmyk = _pattern().convert("CMYK")
    data = _encode(cmyk, "JPEG", quality=95)
    with Image.open(io.BytesIO(data)) as decoded:
        return data, decoded.convert("RGB")


def _palette() -> tuple[bytes, Image.Image]:
    palette = _pattern().quantize(16)
    return _encode(palette, "PNG"), palette.convert("RGB")


def _palette_transparent() -> tuple[bytes, Image.Image]:
    palette = _pattern().quantize(16)
    index = palette.getpixel((10, 10))  # the background becomes transparent
    return _encode(palette, "PNG", transparency=index), _on_white(
        _with_index_transparent(palette, index)
    )


def _with_index_transparent(palette: Image.Image, index: int) -> Image.Image:
    rgba = palette.convert("RGBA")
    alpha = palette.point(lambda value: 0 if value == index else 255, "L")
    rgba.putalpha(alpha)
    return rgba


def _grayscale() -> tuple[bytes, Image.Image]:
    gray = _pattern().convert("L")
    return _encode(gray, "PNG"), gray.convert("RGB")


def _named_paper(mode: str) -> tuple[bytes, Image.Image]:
    """A grey page whose PNG text says "paper": the name the import gives a greyed page's
    paper colour, which must not be taken from the file."""
    text = PngImagePlugin.PngInfo()
    text.add_text("paper", "yellowed")
    page = _pattern().convert("L").convert(mode)
    return _encode(page, "PNG", pnginfo=text), page.convert("RGB")


def _alpha(mode: str) -> tuple[bytes, Image.Image]:
    base = _pattern().convert("L" if mode == "LA" else "RGB").convert(mode)
    # Transparent where the page is background; what is under it is black, as editors leave it.
    alpha = _pattern().convert("L").point(lambda value: 0 if value > 200 else 255)
    black = Image.new(mode, SIZE)
    page = Image.composite(base, black, alpha)
    page.putalpha(alpha)
    return _encode(page, "PNG"), _on_white(page)


def _avif() -> tuple[bytes, Image.Image]:
    data = _encode(_pattern(), "AVIF", quality=90)
    with Image.open(io.BytesIO(data)) as decoded:
        return data, decoded.convert("RGB")


SOURCES = {
    "16-bit grayscale PNG": _gray16,
    "16-bit RGB PNG": _rgb16,
    "CMYK JPEG": _cmyk,
    "palette PNG": _palette,
    "palette PNG with a transparent colour": _palette_transparent,
    "grayscale PNG": _grayscale,
    "grayscale PNG with a text named paper": lambda: _named_paper("L"),
    "grey RGB PNG with a text named paper": lambda: _named_paper("RGB"),
    "LA PNG": lambda: _alpha("LA"),
    "RGBA PNG": lambda: _alpha("RGBA"),
    "AVIF": _avif,
}


def _published(store: MediaStore, data: bytes) -> Image.Image:
    stored = store.store_page(data, WriteLog())
    with Image.open(store.path(reader_path(stored.key, stored.width, stored.height))) as served:
        return served.convert("RGB")


@pytest.mark.parametrize("kind", list(SOURCES))
def test_the_served_page_looks_like_its_source(tmp_path: Path, kind: str):
    data, expected = SOURCES[kind]()
    served = _published(MediaStore(tmp_path), data)
    assert served.size == SIZE
    mean = ImageStat.Stat(served).mean
    wanted = ImageStat.Stat(expected).mean
    assert max(abs(a - b) for a, b in zip(mean, wanted, strict=True)) < MEAN_TOLERANCE, (
        f"{kind}: mean colour {mean} instead of {wanted}"
    )
    thumb = served.resize((6, 9), Image.Resampling.BOX)
    wanted_thumb = expected.resize((6, 9), Image.Resampling.BOX)
    worst = max(high for _, high in ImageChops.difference(thumb, wanted_thumb).getextrema())
    assert worst < THUMB_TOLERANCE, f"{kind}: thumbnail differs by {worst}"


@pytest.mark.parametrize("fmt", ["GIF", "WEBP", "PNG"])
def test_an_animated_page_keeps_its_first_frame_with_a_note(tmp_path: Path, fmt: str):
    first = _pattern()
    second = Image.new("RGB", SIZE, (20, 20, 20))
    data = _encode(first, fmt, save_all=True, append_images=[second], duration=100, loop=0)
    written = store_page_detached(str(tmp_path), data)
    assert written.error is None
    assert written.note is not None and "animated" in written.note and "first" in written.note
    served = _published(MediaStore(tmp_path), data)
    assert ImageStat.Stat(served).mean[0] > 100  # the bright first frame, not the dark second


def test_a_still_page_has_no_note(tmp_path: Path):
    written = store_page_detached(str(tmp_path), _encode(_pattern(), "PNG"))
    assert written.error is None and written.note is None


def test_an_import_names_the_animated_page_and_takes_an_avif_page(tmp_path: Path, engine, media):
    from manga_app.catalogue.importer import import_source

    from .builders import write_cbz

    animated = _encode(
        _pattern(), "GIF", save_all=True, append_images=[Image.new("RGB", SIZE)], duration=90
    )
    avif = _encode(_pattern().rotate(180), "AVIF")
    archive = write_cbz(tmp_path / "src" / "作品" / "作品 第1話.cbz", {"1.gif": animated, "2.avif": avif})
    report = import_source(tmp_path / "src", engine=engine, media=media)
    assert report.failed == [] and report.imported == [archive.resolve()]
    assert [(path.name, note) for path, note in report.notes] == [
        ("作品 第1話.cbz", "page '1.gif': animated GIF page (2 frames): only its first frame is published")
    ]
