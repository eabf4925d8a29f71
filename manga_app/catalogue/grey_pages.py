"""Black-and-white pages: told apart from colour ones at import (allowing
for paper tint, scan grain and JPEG chroma noise) and encoded as one channel;
on tinted paper the channel keeps the paper's colour for the encoders to
paint back (page_images.encode_derivative, avif.encode). Pure Pillow."""

from __future__ import annotations

from PIL import Image, ImageChops

# A page is grey when, after taking out the paper's tint, almost no pixel of its
# 1/8 scale (which averages away JPEG chroma noise and scan grain) is coloured:
# GREY_SHARE of the pixels at most GREY_CHROMA apart between channels (0-255).
GREY_SCALE = 8
GREY_CHROMA = 24
GREY_SHARE = 0.999
PAPER_MIN, PAPER_TINT = 200, 40  # paper is near white: its channels 200-255, at most 40 apart
# Paper whose channels are further apart than this is tinted: its colour is kept (painted).
PAPER_NEUTRAL = 2


def is_near_grey(image: Image.Image) -> bool:
    """Whether an RGB page is black and white on tinted paper (allowing for scan
    grain and JPEG chroma noise), judged at 1/GREY_SCALE of its size."""
    return grey_paper(image) is not None


def grey_paper(image: Image.Image) -> tuple[int, int, int] | None:
    """The paper's colour of a near-grey RGB page (see is_near_grey), else None."""
    small = image.reduce(GREY_SCALE) if min(image.size) >= GREY_SCALE * 8 else image
    channels = small.split()
    # The paper: each channel's brightest percent, scaled back to white.
    paper = [max(1, _percentile(channel.histogram(), 0.99)) for channel in channels]
    if min(paper) < PAPER_MIN or max(paper) - min(paper) > PAPER_TINT:
        paper = [255, 255, 255]  # the brightest part is no paper (a flat colour page): no correction
    balanced = [channel.point(lambda v, p=p: min(255, v * 255 // p)) for channel, p in zip(channels, paper)]
    high = ImageChops.lighter(ImageChops.lighter(balanced[0], balanced[1]), balanced[2])
    low = ImageChops.darker(ImageChops.darker(balanced[0], balanced[1]), balanced[2])
    chroma = ImageChops.subtract(high, low).histogram()
    return tuple(paper) if sum(chroma[: GREY_CHROMA + 1]) >= GREY_SHARE * sum(chroma) else None


def greyed(image: Image.Image) -> Image.Image:
    """A near-grey RGB page as one channel (L); colour pages and L pages as they are.

    On tinted paper the channel carries the paper's colour in info["paper"]
    (kept through resizes and crops): the encoders paint it back (painted).
    Only this function sets it: a key of that name read from the file (a PNG's
    text chunk) is dropped first."""
    image.info.pop("paper", None)
    paper = grey_paper(image) if image.mode == "RGB" else None
    if paper is None:
        return image
    grey = image.convert("L")
    if max(paper) - min(paper) > PAPER_NEUTRAL:
        grey.info["paper"] = paper
    return grey


def painted(frame: Image.Image) -> Image.Image:
    """A greyed frame on tinted paper as RGB: its grey times the paper's colour
    over the paper's own grey (the ink's tones kept, the scan's chroma noise gone)."""
    paper = frame.info.get("paper") if frame.mode == "L" else None
    if paper is None:
        return frame
    grey = (299 * paper[0] + 587 * paper[1] + 114 * paper[2]) / 1000  # as convert("L") weighs them
    return Image.merge("RGB", [frame.point([min(255, round(v * c / grey)) for v in range(256)]) for c in paper])


def _percentile(histogram: list[int], share: float) -> int:
    wanted, seen = share * sum(histogram), 0
    for value, count in enumerate(histogram):
        seen += count
        if seen >= wanted:
            return value
    return len(histogram) - 1
