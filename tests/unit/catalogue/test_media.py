"""media.py: content-addressed originals, AVIF derivatives with JPEG/WebP fallbacks, bombs and cleanup."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageChops

from manga_app.catalogue.media import (
    MAX_IMAGE_PIXELS,
    MediaError,
    MediaStore,
    WriteLog,
    avif_path,
    cover_path,
    original_path,
    reader_path,
    saver_path,
)

from .builders import bomb_png, image_bytes


def test_a_page_is_kept_as_imported_plus_avif_derivatives_and_jpeg_and_webp_fallbacks(tmp_path: Path):
    # Given a large colour JPEG page
    data = image_bytes(size=(2400, 3600), fmt="JPEG")
    store, log = MediaStore(tmp_path), WriteLog()
    # When it is stored
    stored = store.store_page(data, log)
    # Then the key is the sha256, the original is byte-identical, derivatives are shrunk WebPs
    assert (stored.width, stored.height, stored.bytes, stored.ext) == (2400, 3600, len(data), "jpg")
    assert original_path(stored.key, "jpg") == f"{stored.key[:2]}/{stored.key}.jpg"
    assert store.path(original_path(stored.key, "jpg")).read_bytes() == data
    with Image.open(store.path(reader_path(stored.key))) as reader:
        assert (reader.format, reader.size) == ("JPEG", (1200, 1800))
    with Image.open(store.path(saver_path(stored.key))) as saver:
        assert (saver.format, saver.size) == ("WEBP", (720, 1080))
    # And AVIF at the reader and data-saver widths, in colour
    for max_width, size in ((1200, (1200, 1800)), (720, (720, 1080))):
        with Image.open(store.path(avif_path(stored.key, 2400, 3600, max_width))) as avif:
            assert (avif.format, avif.size, avif.mode) == ("AVIF", size, "RGB")
    assert len(log.created) == 5


def _scan_of_grey_page(tint=(250, 246, 234), colour_spot=None) -> bytes:
    """A black-and-white page scanned on tinted paper: grain, then an RGB JPEG (chroma noise)."""
    import io
    import random

    rng = random.Random(7)
    page = Image.new("L", (900, 1300), 255)
    for _ in range(400):  # ink: strokes and a screentone-like field of dots
        x, y = rng.randrange(820), rng.randrange(1220)  # the bottom-right corner stays blank paper
        page.paste(rng.choice((0, 60, 120)), (x, y, x + rng.randint(2, 40), y + rng.randint(2, 40)))
    rgb = Image.merge("RGB", [page.point(lambda v, t=t: v * t // 255) for t in tint])
    noise = Image.effect_noise((900, 1300), 12).convert("RGB")
    rgb = Image.blend(rgb, noise, 0.04)
    if colour_spot:
        rgb.paste(colour_spot, (100, 100, 260, 260))
    out = io.BytesIO()
    rgb.save(out, format="JPEG", quality=85)
    return out.getvalue()


def test_a_grey_page_on_white_paper_is_encoded_as_one_channel(tmp_path: Path):
    # The scan's chroma noise is dropped: the AVIF carries one grey channel (SVT-AV1 has no 4:0:0,
    # its chroma planes are flat), so every pixel decodes grey; the JPEG fallback is one channel.
    store = MediaStore(tmp_path)
    stored = store.store_page(_scan_of_grey_page(tint=(253, 253, 253)), WriteLog())
    with Image.open(store.path(avif_path(stored.key, stored.width, stored.height, 1200))) as avif:
        red, green, blue = avif.convert("RGB").split()
        assert ImageChops.difference(red, green).getextrema()[1] <= 2
        assert ImageChops.difference(blue, green).getextrema()[1] <= 2
    with Image.open(store.path(reader_path(stored.key))) as jpeg:
        assert jpeg.mode == "L"


def test_a_grey_page_on_tinted_paper_is_its_grey_channel_on_the_paper_colour(tmp_path: Path):
    # Dropping a warm paper's tint alone costs SSIMULACRA 2 about 15 points (bench_bytes):
    # the ink is one grey channel (the scan's chroma noise gone), multiplied by the paper's colour.
    store = MediaStore(tmp_path)
    stored = store.store_page(_scan_of_grey_page(tint=(250, 242, 226)), WriteLog())
    for rel in (avif_path(stored.key, stored.width, stored.height, 1200), reader_path(stored.key),
                saver_path(stored.key)):
        with Image.open(store.path(rel)) as derivative:
            paper = derivative.convert("RGB").getpixel((derivative.width - 3, derivative.height - 3))
            assert derivative.mode == "RGB", rel
            assert paper[0] - paper[2] >= 16, (rel, paper)  # warm, as scanned
            blank = derivative.convert("RGB").crop((derivative.width - 40, derivative.height - 40,
                                                    derivative.width, derivative.height))
            assert max(hi - lo for lo, hi in blank.getextrema()) <= 12, rel  # flat paper: no chroma noise


def test_a_page_with_a_small_area_of_colour_keeps_its_colour(tmp_path: Path):
    store = MediaStore(tmp_path)
    stored = store.store_page(_scan_of_grey_page(colour_spot=(200, 30, 40)), WriteLog())
    with Image.open(store.path(avif_path(stored.key, stored.width, stored.height, 1200))) as avif:
        assert avif.mode == "RGB"
        assert avif.getpixel((180, 180))[0] > 150 > avif.getpixel((180, 180))[1] + 60


def test_small_pages_are_not_upscaled_and_existing_files_are_not_rewritten(tmp_path: Path):
    store = MediaStore(tmp_path)
    data = image_bytes(size=(300, 500))
    stored = store.store_page(data, WriteLog())
    second = WriteLog()
    assert store.store_page(data, second) == stored
    assert second.created == []
    with Image.open(store.path(reader_path(stored.key))) as reader:
        assert reader.size == (300, 500)


def test_cover_thumbnails_are_320_and_160_wide(tmp_path: Path):
    store = MediaStore(tmp_path)
    key = store.store_cover(image_bytes(size=(800, 1200)), WriteLog())
    for width, height in ((320, 480), (160, 240)):
        with Image.open(store.path(cover_path(key, width))) as thumb:
            assert thumb.size == (width, height)


@pytest.mark.parametrize(("width", "height"), [(50_000, 50_000), (10_000, 10_000)])
def test_decompression_bombs_are_refused_before_decoding(tmp_path: Path, width: int, height: int):
    # Both past twice the limit (Pillow's error) and just past it (Pillow's warning) are errors.
    assert MAX_IMAGE_PIXELS < width * height
    store, log = MediaStore(tmp_path), WriteLog()
    with pytest.raises(MediaError, match="decompression bomb"):
        store.store_page(bomb_png(width, height), log)
    assert log.created == [] and list(tmp_path.rglob("*.*")) == []


@pytest.mark.parametrize(
    ("data", "message"),
    [(b"plain text", "not a readable image"), (image_bytes()[:60], "corrupt image")],
)
def test_unusable_images_raise_media_error(tmp_path: Path, data: bytes, message: str):
    with pytest.raises(MediaError, match=message):
        MediaStore(tmp_path).store_page(data, WriteLog())


def test_bmp_is_not_an_accepted_page_format(tmp_path: Path):
    import io

    out = io.BytesIO()
    Image.new("RGB", (4, 4)).save(out, format="BMP")
    with pytest.raises(MediaError, match="unsupported image format BMP"):
        MediaStore(tmp_path).store_page(out.getvalue(), WriteLog())


def test_removing_created_files_leaves_earlier_files_alone(tmp_path: Path):
    store = MediaStore(tmp_path)
    kept = store.store_page(image_bytes(color=(1, 1, 1)), WriteLog())
    log = WriteLog()
    store.store_page(image_bytes(color=(1, 1, 1)), log)  # already there: nothing created
    new = store.store_page(image_bytes(color=(2, 2, 2)), log)
    store.remove_created(log)
    assert store.path(reader_path(kept.key)).exists()
    assert not store.path(reader_path(new.key)).exists()


def test_every_size_comes_from_one_decode_and_equal_sizes_are_encoded_once(
    tmp_path: Path, monkeypatch
):
    from manga_app.catalogue import page_images

    encoded: list[tuple[int, int]] = []
    real_encode = page_images.encode_webp
    monkeypatch.setattr(page_images, "encode_webp", lambda f: encoded.append(f.size) or real_encode(f))
    # Given a page narrower than both reader widths (reader and data-saver are the same size)
    store = MediaStore(tmp_path)
    stored = store.store_page(image_bytes(size=(700, 1000)), WriteLog(), cover=True)
    # Then that size is encoded once as WebP (and once as the reader's JPEG), each
    # cover thumbnail once, largest first
    assert encoded == [(700, 1000), (320, 457), (160, 229)]
    with Image.open(store.path(reader_path(stored.key))) as reader:
        assert (reader.format, reader.size) == ("JPEG", (700, 1000))
    with Image.open(store.path(cover_path(stored.key, 160))) as thumb:
        assert thumb.size == (160, 229)


def test_large_jpegs_are_decoded_at_a_reduced_scale(tmp_path: Path, monkeypatch):
    from PIL import JpegImagePlugin

    requested = []
    real_draft = JpegImagePlugin.JpegImageFile.draft

    def spy(self, mode, size):
        requested.append(size)
        return real_draft(self, mode, size)

    monkeypatch.setattr(JpegImagePlugin.JpegImageFile, "draft", spy)
    store = MediaStore(tmp_path)
    stored = store.store_page(image_bytes(size=(2400, 3600), fmt="JPEG"), WriteLog())
    assert requested == [(1200, 1800)]
    with Image.open(store.path(reader_path(stored.key))) as reader:
        assert reader.size == (1200, 1800)


def test_an_image_already_stored_is_not_decoded_again(tmp_path: Path, monkeypatch):
    from manga_app.catalogue import media

    store = MediaStore(tmp_path)
    data = image_bytes(size=(300, 500))
    first = store.store_page(data, WriteLog())

    def refuse(*_args):
        raise AssertionError("decoded again")

    monkeypatch.setattr(media, "decode", refuse)
    assert store.store_page(data, WriteLog()) == first


def test_the_worker_entry_point_reports_errors_and_created_files_instead_of_raising(
    tmp_path: Path,
):
    from manga_app.catalogue.media import store_page_detached

    good = store_page_detached(str(tmp_path), image_bytes(size=(300, 500)), True)
    assert good.error is None and good.stored.width == 300
    assert {Path(p).name[64:] for p in good.created} == {
        ".png",
        "-cover160.avif",
        "-cover160.webp",
        "-cover320.avif",
        "-cover320.webp",
        "-w1200.avif",
        "-w1200.jpg",
        "-w720.avif",
        "-w720.webp",
    }
    bad = store_page_detached(str(tmp_path), bomb_png(), False)
    assert bad.stored is None and "decompression bomb" in bad.error and bad.created == ()


def _rotated_jpeg(size=(1600, 900), orientation=6) -> bytes:
    """A landscape JPEG whose EXIF says 'rotate 90° clockwise to view' (a phone photo held upright)."""
    import io

    image = Image.new("RGB", size, (255, 255, 255))
    image.paste((200, 0, 0), (0, 0, size[0] // 4, size[1]))  # red band on the stored left edge
    exif = Image.Exif()
    exif[0x0112] = orientation
    out = io.BytesIO()
    image.save(out, format="JPEG", exif=exif.tobytes(), quality=95)
    return out.getvalue()


@pytest.mark.parametrize("orientation", [6, 8])
def test_exif_orientation_is_applied_before_sizes_are_recorded(tmp_path: Path, orientation: int):
    # Given a landscape JPEG that EXIF says to show as a portrait page
    store = MediaStore(tmp_path)
    stored = store.store_page(_rotated_jpeg(orientation=orientation), WriteLog(), cover=True)
    # Then the recorded size and every derivative are upright
    assert (stored.width, stored.height) == (900, 1600)
    with Image.open(store.path(reader_path(stored.key))) as reader:
        assert reader.size == (900, 1600)
        # The stored left edge is the top (orientation 6) or the bottom (8) once upright
        top, bottom = reader.getpixel((450, 20)), reader.getpixel((450, 1580))
        red, white = (top, bottom) if orientation == 6 else (bottom, top)
        assert red[0] > 150 and red[1] < 80 and min(white) > 200
    with Image.open(store.path(cover_path(stored.key, 320))) as cover:
        assert cover.size == (320, 569)


def test_strips_too_tall_for_webp_keep_the_reader_width_as_jpeg(tmp_path: Path):
    # Given a webtoon strip 800 x 40,000 (WebP stops at 16,383 px)
    store = MediaStore(tmp_path)
    data = image_bytes(size=(800, 40_000), fmt="PNG")
    stored = store.store_page(data, WriteLog(), cover=True)
    assert (stored.width, stored.height) == (800, 40_000)
    # Then the reader copy is 800 wide (not enlarged), full height, as JPEG
    reader = reader_path(stored.key, stored.width, stored.height)
    assert reader.endswith("-w1200.jpg")
    with Image.open(store.path(reader)) as image:
        assert (image.format, image.size) == ("JPEG", (800, 40_000))
    with Image.open(store.path(saver_path(stored.key, stored.width, stored.height))) as image:
        assert (image.format, image.size) == ("JPEG", (720, 36_000))
    # No AVIF for a strip AVIF cannot hold; its data saver is JPEG as well
    assert avif_path(stored.key, stored.width, stored.height, 1200) is None
    assert not list(tmp_path.rglob("*-w*.avif"))
    # And the cover shows the top of the strip, at most twice as tall as wide
    with Image.open(store.path(cover_path(stored.key, 320))) as image:
        assert (image.format, image.size) == ("WEBP", (320, 640))
    # A data-saver page that fits stays WebP, whether its size is given or not
    assert saver_path("a" * 64, 800, 16_000).endswith("-w720.webp")
    assert saver_path("a" * 64).endswith("-w720.webp")


def test_the_bomb_message_quotes_the_limit_in_force(tmp_path: Path):
    for width, height in ((50_000, 50_000), (10_000, 10_000)):
        with pytest.raises(MediaError) as refused:
            MediaStore(tmp_path).store_page(bomb_png(width, height), WriteLog())
        assert str(refused.value) == (
            f"decompression bomb refused: {width * height:,} pixels exceeds the limit of "
            "80,000,000 pixels"
        )
