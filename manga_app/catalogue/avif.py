"""AVIF encoding of page and cover derivatives (issue 37): SVT-AV1 through
PyAV's FFmpeg for what it can encode, libaom through Pillow for the rest.

SVT-AV1 (PyAV 18.1's bundled libsvtav1, preset 8, tune=3, the still-image
tune): at the same SSIMULACRA 2 it writes 10-20 % fewer bytes than libaom
(Pillow's libavif, speed 9, the fastest) and spends less CPU on colour pages
(about 0.18 against 0.33 s for a 1,200 x 1,800 page; grey pages about even,
0.2 s). Its CRF is per width and page class (page_images.AVIF_CRF), chosen
by benchmarks/bench_bytes.py on benchmarks/manga_pages.py's 40 pages: for each,
the highest CRF (fewest bytes) whose worst page of the class still scores
SSIMULACRA 2 >= 70 (bench_bytes.THRESHOLD); its figures are in the README.
- 4:2:0 in limited-range BT.601 (swscale's conversion; a greyed page's
  planes written from per-level tables, _picture), tagged as such with
  sRGB transfer, for every class: SVT-AV1 has no 4:0:0, but a grey page's
  flat chroma costs it little (a grey page: 187 against libaom 4:0:0's 189 KB
  at a higher score). Full range was a wash (more bytes at one CRF, the
  same at one score).
- One thread (lp=1): the import's worker processes already use every core.
  It also matters for small frames: with its own threads SVT-AV1 hung (no
  CPU, never returning) on 24 x 200, 8 x 200 and 200 x 16, which lp=1
  encodes. Frames under SVT_MIN_SIDE take libaom all the same, as do frames
  SVT-AV1 refuses (16,385 wide, 720 x 8,706: SVT_MAX_WIDTH and
  SVT_MAX_HEIGHT are the largest that passed, so webtoon strips take it) and
  any it refuses otherwise. libaom's AOM_QUALITY kept every class of the 40
  pages >= 70 when it was the site's encoder (colour pages were its worst).
Pillow, PyAV, and ctypes for one Linux capability (_without_realtime_threads).
"""

from __future__ import annotations

import ctypes
import functools
import io
import os
import sys

from PIL import Image

from manga_app.catalogue.grey_pages import painted

# SVT-AV1 writes a dozen lines of configuration to stderr for every encode at its default level;
# errors only (it reads this when an encoder is made).
os.environ.setdefault("SVT_LOG", "1")

SVT_PRESET = 8
SVT_PARAMS = "avif=1:tune=3:lp=1"
SVT_MIN_SIDE = 64
SVT_MAX_WIDTH, SVT_MAX_HEIGHT = 16_384, 8_704
AOM_QUALITY, AOM_SPEED = 70, 9
# Tags written into the file (FFmpeg's AVCOL_* numbers): what swscale's RGB -> yuv420p produces.
_LIMITED_RANGE, _BT601, _BT709_PRIMARIES, _SRGB_TRANSFER = 1, 6, 1, 13


def svt_fits(size: tuple[int, int]) -> bool:
    width, height = size
    return min(size) >= SVT_MIN_SIDE and width <= SVT_MAX_WIDTH and height <= SVT_MAX_HEIGHT


def encode(frame: Image.Image, crf: int) -> bytes:
    """A greyed (grey_pages: L, maybe on tinted paper) or RGB frame as AVIF: SVT-AV1 at
    `crf` where it fits, else libaom."""
    encoded = _svt(frame, crf) if svt_fits(frame.size) else None
    if encoded is not None:
        return encoded
    out = io.BytesIO()
    painted(frame).save(out, format="AVIF", quality=AOM_QUALITY, speed=AOM_SPEED, max_threads=1)
    return out.getvalue()


def _svt(frame: Image.Image, crf: int) -> bytes | None:
    """The frame by SVT-AV1, or None where it refuses it."""
    # Imported here: FFmpeg's libraries cost a process 26 MB and 0.2 s to load, and only the
    # import's workers encode (the web server imports this module through page_images).
    import av

    _without_realtime_threads()
    picture = _picture(frame)
    out = io.BytesIO()
    try:
        with av.open(out, "w", format="avif") as container:
            stream = container.add_stream("libsvtav1", rate=1)
            stream.width, stream.height = frame.size
            stream.pix_fmt = "yuv420p"
            context = stream.codec_context
            context.color_range, context.colorspace = _LIMITED_RANGE, _BT601
            context.color_primaries, context.color_trc = _BT709_PRIMARIES, _SRGB_TRANSFER
            stream.options = {"crf": str(crf), "preset": str(SVT_PRESET), "svtav1-params": SVT_PARAMS}
            for packet in stream.encode(picture):
                container.mux(packet)
            for packet in stream.encode(None):
                container.mux(packet)
    except av.FFmpegError:
        return None
    return out.getvalue()


def _picture(frame: Image.Image):
    """The frame as the encoder's yuv420p picture, in swscale's limited-range BT.601.

    A greyed frame (L, on white or tinted paper: grey_pages) has its planes
    written from tables: each grey level's luma and colour as swscale gives
    them for the level's RGB (painted). Expanding the frame to RGB for swscale
    took 19-21 ms of CPU at 1,200 x 1,800, against 3-6 ms for this. The luma
    is the same to the byte; the colour planes of tinted paper are each 2 x 2
    block's mean level coloured, where swscale filters a wider neighbourhood
    (tests/unit/catalogue/test_avif.py)."""
    import av

    if frame.mode != "L":
        return av.VideoFrame.from_image(frame).reformat(format="yuv420p")
    luma, blue, red = _planes_of_levels(frame.info.get("paper"))
    picture = av.VideoFrame(frame.width, frame.height, "yuv420p")
    planes = picture.planes
    planes[0].update(_rows(frame.point(luma), planes[0].line_size))
    half = frame.reduce(2)  # the chroma planes' size: each side halved, rounded up
    for plane, table in zip(planes[1:], (blue, red)):
        plane.update(_rows(half.point(table), plane.line_size))
    return picture


_BLOCK = 16  # a level's square in the table's ramp: wider than swscale's chroma filter reaches


@functools.lru_cache(maxsize=64)
def _planes_of_levels(paper: tuple[int, int, int] | None) -> tuple[tuple[int, ...], ...]:
    """(Y, Cb, Cr) of each grey level 0-255 painted on `paper` (None: white), read
    off swscale's conversion of a ramp of squares, one square a level."""
    import av

    ramp = Image.new("L", (256, 1))
    ramp.putdata(range(256))
    ramp = ramp.resize((256 * _BLOCK, _BLOCK), Image.Resampling.NEAREST)
    if paper is not None:
        ramp.info["paper"] = paper
    planes = av.VideoFrame.from_image(painted(ramp)).reformat(format="yuv420p").planes
    centre = _BLOCK // 4  # a chroma sample in the middle of each square
    luma = bytes(planes[0])[: 256 * _BLOCK : _BLOCK]
    chroma = [bytes(plane)[plane.line_size * centre :][centre : 128 * _BLOCK : _BLOCK // 2] for plane in planes[1:]]
    return tuple(luma), *(tuple(values) for values in chroma)


def _rows(image: Image.Image, line_size: int) -> bytes:
    """An L image's bytes with each row padded to `line_size`."""
    if line_size == image.width:
        return image.tobytes()
    padded = Image.new("L", (line_size, image.height))
    padded.paste(image)
    return padded.tobytes()


# Linux capabilities (linux/capability.h): version 3 headers, CAP_SYS_NICE's bit.
_CAPABILITY_VERSION_3, _CAP_SYS_NICE = 0x20080522, 23


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _without_realtime_threads() -> None:
    """Drop CAP_SYS_NICE from the calling thread's effective capabilities (its encoder's threads inherit them).

    Run as root, SVT-AV1 creates its threads at real-time priority (SCHED_FIFO 99), and an import's
    encodes then starve every other process: a fresh `make run`'s server waited about 75 s for the
    background re-encode to finish. Without the capability its thread creation is refused that
    priority and it makes ordinary threads (checked: same bytes, threads SCHED_OTHER). Not root, the
    thread has no such capability and nothing changes."""
    if sys.platform != "linux":
        return
    libc = ctypes.CDLL(None, use_errno=True)
    header, data = _CapHeader(_CAPABILITY_VERSION_3, 0), (_CapData * 2)()
    bit = 1 << _CAP_SYS_NICE
    if libc.capget(ctypes.byref(header), data) == 0 and data[0].effective & bit:
        data[0].effective &= ~bit
        libc.capset(ctypes.byref(header), data)
