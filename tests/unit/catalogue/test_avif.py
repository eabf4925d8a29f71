"""avif.py: SVT-AV1 where it can encode a frame, libaom where it refuses or hangs; either way an AVIF
a browser shows at the frame's size and colours."""

from __future__ import annotations

import io
import multiprocessing

import pytest
from PIL import Image

from manga_app.catalogue import avif
from manga_app.catalogue.grey_pages import painted

RED = (200, 30, 40)


def _encode_in_a_child(size: tuple[int, int], queue) -> None:
    queue.put(avif.encode(Image.new("RGB", size, RED), 23))


def _in_a_child(target, *args, seconds: float = 60):
    """What `target(*args, queue)` puts on its queue, run in a new process: an encoder that hangs
    fails the test instead of the run, and the process starts with no capability dropped yet."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    child = context.Process(target=target, args=(*args, queue))
    child.start()
    try:
        return queue.get(timeout=seconds)
    finally:
        child.kill()
        child.join()


@pytest.mark.parametrize("size", [
    (1, 1), (3, 5),  # refused by SVT-AV1
    (24, 200), (200, 16),  # SVT-AV1 never returns on these
    (720, 9000),  # a webtoon strip taller than SVT-AV1 takes
    (64, 64), (1200, 1800),  # SVT-AV1's own
])
def test_every_size_a_page_or_cover_can_have_becomes_an_avif_of_that_size_and_colour(size):
    with Image.open(io.BytesIO(_in_a_child(_encode_in_a_child, size))) as image:
        assert (image.format, image.size) == ("AVIF", size)
        red, green, blue = image.convert("RGB").getpixel((size[0] // 2, size[1] // 2))
        assert abs(red - RED[0]) <= 6 and abs(green - RED[1]) <= 6 and abs(blue - RED[2]) <= 6


def test_a_grey_frame_decodes_without_a_colour_cast_at_every_tone():
    ramp = Image.linear_gradient("L").resize((256, 256))
    for frame in (ramp, Image.linear_gradient("L").resize((16, 256))):  # SVT-AV1's and libaom's
        with Image.open(io.BytesIO(avif.encode(frame, 10))) as image:
            rgb = image.convert("RGB")
            for y in range(0, 256, 8):
                red, green, blue = rgb.getpixel((frame.width // 2, y))
                assert max(red, green, blue) - min(red, green, blue) <= 2, (y, (red, green, blue))
                assert abs(red - y) <= 4, (y, red)  # black stays black, paper stays white


PAPER = (246, 236, 212)  # a warm paper's tint


def test_a_grey_frame_on_tinted_paper_decodes_with_the_papers_colour_at_every_tone():
    for width in (256, 16):  # SVT-AV1's and libaom's
        frame = Image.linear_gradient("L").resize((width, 256))
        frame.info["paper"] = PAPER
        expected = painted(frame)
        with Image.open(io.BytesIO(avif.encode(frame, 10))) as image:
            rgb = image.convert("RGB")
            for y in range(0, 256, 8):
                seen, wanted = rgb.getpixel((width // 2, y)), expected.getpixel((width // 2, y))
                assert all(abs(a - b) <= 4 for a, b in zip(seen, wanted)), (width, y, seen, wanted)


def _planes(picture) -> list[bytes]:
    """A picture's planes without the padding at the end of each row."""
    return [b"".join(bytes(plane)[row * plane.line_size:][:plane.width] for row in range(plane.height))
            for plane in picture.planes]


@pytest.mark.parametrize("size", [(1200, 1800), (721, 1081), (100, 3000), (65, 64)])
def test_a_greyed_frame_reaches_the_encoder_as_swscale_would_convert_its_colours(size):
    import random

    import av

    rng = random.Random(size[0])
    noise = Image.frombytes("L", size, rng.randbytes(size[0] * size[1]))
    tinted = noise.copy()
    tinted.info["paper"] = PAPER
    for frame in (noise, tinted):
        ours = _planes(avif._picture(frame))
        theirs = _planes(av.VideoFrame.from_image(painted(frame)).reformat(format="yuv420p"))
        assert ours[0] == theirs[0]  # the luma, to the byte
        for mine, swscale in zip(ours[1:], theirs[1:]):
            if frame is noise:  # white paper: no colour, to the byte
                assert mine == swscale
            else:  # each 2 x 2 block's mean level coloured, where swscale's filter reaches wider
                differences = [abs(a - b) for a, b in zip(mine, swscale)]
                assert max(differences) <= 8 and sum(differences) / len(differences) <= 1.5


def _policies_while_encoding(queue) -> None:
    import os
    import threading
    import time

    seen, done = set(), threading.Event()

    def watch():
        while not done.is_set():
            for tid in os.listdir("/proc/self/task"):
                try:
                    seen.add(os.sched_getscheduler(int(tid)))
                except OSError:  # the thread ended meanwhile
                    pass
            time.sleep(0.002)

    watcher = threading.Thread(target=watch)
    watcher.start()
    for _ in range(4):
        avif.encode(Image.effect_noise((1200, 1800), 40), 23)
    done.set()
    watcher.join()
    queue.put(seen)


def test_encoding_leaves_the_cpu_to_the_other_processes_even_as_root():
    # SVT-AV1 gives its threads real-time priority when it runs as root: a fresh `make run`'s
    # server then waited for the background re-encode. Every thread must stay an ordinary one.
    import os

    policies = _in_a_child(_policies_while_encoding, seconds=120)
    assert policies <= {os.SCHED_OTHER, os.SCHED_BATCH, os.SCHED_IDLE}, policies
