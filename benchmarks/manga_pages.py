"""A generated test set of realistic manga pages for the bytes benchmark (bench_bytes.py).

Nothing here is committed as an image: every page is drawn from a seed. The
set (PAGES pages, 1,600 x 2,400 px, a B5 page scanned at about 220 dpi)
mixes what encoders find hard on manga:

- screentone halftones: round dots on a 45-degree screen at 55-85 lpi, in
  flat tints and in gradients (the dot grows with the tone);
- hatching and cross-hatching, 1-2 px lines;
- solid blacks with white highlights (hair, night skies), panel borders;
- speech balloons with Japanese text, vertical (tategaki) and horizontal;
- colour inserts (1 page in 5): gradients, flat fills, tones over colour;
- paper-scan noise: paper tint (warm, cool or white), grain, a slight blur
  and the scanner's JPEG at quality 92 saved as RGB, so a black-and-white
  page arrives with chroma noise, as scans do.
"""

from __future__ import annotations

import io
import math
import random

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

from manga_app.demo.drawing import draw_balloon, font

PAGES = 40
SIZE = (1600, 2400)
DPI = 220  # a B5 page (182 mm) 1,600 px wide
COLOUR_EVERY = 5  # pages 0, 5, 10... are colour inserts
_TINTS = ((250, 247, 238), (246, 247, 250), (253, 253, 253), (244, 239, 226))
_SFX = ("ドドド", "ゴゴゴ", "ザッ", "バン！", "シーン")


def page_set(count: int = PAGES, seed: int = 37) -> list[tuple[str, bytes]]:
    """[(name, JPEG bytes as scanned)] for `count` pages."""
    return [draw_page(seed * 1000 + index, colour=index % COLOUR_EVERY == 0) for index in range(count)]


def draw_page(seed: int, colour: bool) -> tuple[str, bytes]:
    rng = random.Random(seed)
    ink = np.zeros(SIZE[::-1], dtype=np.float32)  # 0 paper .. 1 ink (what a grey page is made of)
    panels = _panels(rng)
    colour_layer = Image.new("RGB", SIZE, (255, 255, 255)) if colour else None
    for box in panels:
        _fill_panel(rng, ink, box, colour_layer)
    ink_image = Image.fromarray(np.clip(255 - ink * 255, 0, 255).astype(np.uint8), "L")
    draw = ImageDraw.Draw(ink_image)
    for box in panels:
        draw.rectangle(box, outline=0, width=5)
        if rng.random() < 0.7:
            anchor = (rng.randint(box[0], box[2]), rng.randint(box[1], box[3]))
            draw_balloon(ink_image, rng, anchor, box, vertical=rng.random() < 0.75)
        if rng.random() < 0.3:
            draw.text((box[0] + 40, box[1] + 30), rng.choice(_SFX), font=font(90, bold=True),
                      fill=0, stroke_width=4, stroke_fill=255)
    tint = rng.choice(_TINTS)
    if colour_layer is not None:
        page = Image.composite(colour_layer, Image.new("RGB", SIZE, 0), ink_image)
        paper = Image.new("RGB", SIZE, tint)
        page = Image.fromarray((np.asarray(page, np.float32) * np.asarray(paper, np.float32) / 255).astype(np.uint8))
    else:
        page = Image.merge("RGB", [ink_image.point(lambda v, t=t: v * t // 255) for t in tint])
    page = _scan(rng, page)
    out = io.BytesIO()
    page.save(out, format="JPEG", quality=92)  # 4:2:0, as scanners and scanlation sources do
    return (f"{'colour' if colour else 'grey'}-{seed % 1000:02d}", out.getvalue())


def _panels(rng: random.Random) -> list[tuple[int, int, int, int]]:
    width, height = SIZE
    margin, gutter = 90, 24
    rows = rng.randint(3, 4)
    step = (height - 2 * margin) / rows
    edges = [margin, *(round(margin + step * k + rng.uniform(-80, 80)) for k in range(1, rows)), height - margin]
    boxes = []
    for top, bottom in zip(edges, edges[1:]):
        if rng.random() < 0.6:
            split = rng.randint(width // 3, 2 * width // 3)
            boxes.append((margin, top, split - gutter // 2, bottom - gutter))
            boxes.append((split + gutter // 2, top, width - margin, bottom - gutter))
        else:
            boxes.append((margin, top, width - margin, bottom - gutter))
    return boxes


def _fill_panel(rng: random.Random, ink: np.ndarray, box: tuple[int, int, int, int], colour: Image.Image | None) -> None:
    left, top, right, bottom = box
    region = ink[top:bottom, left:right]
    kind = rng.choice(("tone", "gradient_tone", "hatch", "crosshatch", "black", "tone"))
    h, w = region.shape
    if kind in ("tone", "gradient_tone"):
        coverage = np.full((h, w), rng.uniform(0.1, 0.5), np.float32)
        if kind == "gradient_tone":
            coverage = np.linspace(0.05, 0.7, h, dtype=np.float32)[:, None] * np.ones((1, w), np.float32)
        region[:] = np.maximum(region, _halftone(rng.uniform(55, 85), coverage, left, top))
    elif kind in ("hatch", "crosshatch"):
        region[:] = np.maximum(region, _hatch(h, w, rng.uniform(0, math.pi), rng.uniform(5, 10)))
        if kind == "crosshatch":
            region[:] = np.maximum(region, _hatch(h, w, rng.uniform(0, math.pi), rng.uniform(6, 12)))
    else:
        mask = Image.new("L", (w, h), 0)
        d = ImageDraw.Draw(mask)
        for _ in range(rng.randint(2, 4)):
            x, y, r = rng.randint(0, w), rng.randint(0, h), rng.randint(80, 300)
            d.ellipse((x - r, y - r * 1.4, x + r, y + r * 1.4), fill=255)
        for _ in range(rng.randint(3, 8)):  # highlights
            x, y = rng.randint(0, w), rng.randint(0, h)
            d.line((x, y, x + rng.randint(-60, 60), y + rng.randint(20, 90)), fill=0, width=rng.randint(3, 9))
        region[:] = np.maximum(region, np.asarray(mask, np.float32) / 255)
    _figure(rng, ink, box)
    if colour is not None:
        hue = [rng.randint(60, 255) for _ in range(3)]
        other = [rng.randint(60, 255) for _ in range(3)]
        grad = Image.linear_gradient("L").resize((w, h)).rotate(rng.choice((0, 90, 180)), expand=False)
        fill = Image.composite(Image.new("RGB", (w, h), tuple(hue)), Image.new("RGB", (w, h), tuple(other)), grad)
        colour.paste(fill, (left, top))


def _halftone(lpi: float, coverage: np.ndarray, x0: int, y0: int) -> np.ndarray:
    """Round dots on a 45-degree screen: ink where the dot of that coverage reaches (anti-aliased)."""
    pitch = DPI / lpi
    h, w = coverage.shape
    ys, xs = np.mgrid[y0:y0 + h, x0:x0 + w].astype(np.float32)
    u = (xs + ys) / math.sqrt(2) / pitch
    v = (xs - ys) / math.sqrt(2) / pitch
    du, dv = u - np.round(u), v - np.round(v)
    distance = np.sqrt(du * du + dv * dv)  # 0 at a dot's centre, in pitches
    radius = np.sqrt(coverage / math.pi)
    return np.clip((radius - distance) * pitch + 0.5, 0, 1)


def _hatch(h: int, w: int, angle: float, spacing: float) -> np.ndarray:
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    t = (xs * math.cos(angle) + ys * math.sin(angle)) / spacing
    return np.clip(1.6 - np.abs(t - np.round(t)) * spacing, 0, 1)


def _figure(rng: random.Random, ink: np.ndarray, box: tuple[int, int, int, int]) -> None:
    """Line art: a few outlined shapes with white fill over the background."""
    left, top, right, bottom = box
    layer = Image.fromarray((ink[top:bottom, left:right] * 255).astype(np.uint8), "L")
    d = ImageDraw.Draw(layer)
    for _ in range(rng.randint(1, 3)):
        x, y = rng.randint(0, right - left), rng.randint(0, bottom - top)
        r = rng.randint(60, 200)
        d.ellipse((x - r, y - r, x + r, y + int(r * 1.6)), fill=0, outline=255, width=rng.randint(3, 6))
        for _ in range(6):
            d.line((x, y, x + rng.randint(-r, r), y + rng.randint(-r, r)), fill=255, width=rng.randint(1, 3))
    ink[top:bottom, left:right] = np.asarray(layer, np.float32) / 255


def _scan(rng: random.Random, page: Image.Image) -> Image.Image:
    page = page.filter(ImageFilter.GaussianBlur(0.6))
    noise = np.random.default_rng(rng.randint(0, 2**31)).normal(0, 3.0, (SIZE[1], SIZE[0], 1))
    pixels = np.asarray(page, np.float32) + noise
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8), "RGB")
