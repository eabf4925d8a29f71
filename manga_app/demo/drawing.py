"""Page rendering with Pillow: covers, manga pages, spreads and webtoon strips.

The pages only need to *look* like manga at reading speed (panel grids,
figures, screentone, speech balloons with Japanese text), so everything is
built from a few cheap primitives and Pillow's C routines; no per-pixel
Python loops. Interior manga pages are greyscale ("L") because that is what
raw manga look like and because greyscale JPEGs are small and fast to
encode; covers and webtoon strips are in colour, tinted with the series hue.

All randomness comes from a ``random.Random`` seeded by the caller, so the
same seed always yields the same pixels (and therefore the same JPEG bytes).
"""

from __future__ import annotations

import colorsys
import functools
import math
import random
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, ImageOps

from manga_app.demo.catalogue_data import SOUND_EFFECTS, SPEECH_LINES
from manga_app.demo.plan import PAGE_SIZE, ChapterPlan, PagePlan

__all__ = [
    "CJKFontNotFoundError",
    "find_cjk_font",
    "render_page",
]

Point = tuple[float, float]
Colour = int | tuple[int, int, int]

_FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"), Path.home() / ".local/share/fonts")
# Most specific first: Debian's fonts-noto-cjk ships the .ttc collections.
_FONT_PATTERNS = {
    False: (
        "NotoSansCJK-Regular.ttc",
        "NotoSansCJKjp-Regular.otf",
        "NotoSansCJK*-Regular.tt?",
        "NotoSerifCJK-Regular.ttc",
    ),
    True: (
        "NotoSansCJK-Bold.ttc",
        "NotoSansCJKjp-Bold.otf",
        "NotoSansCJK*-Bold.tt?",
        "NotoSerifCJK-Bold.ttc",
    ),
}


class CJKFontNotFoundError(RuntimeError):
    """No font able to draw Japanese was found on this machine."""


# --------------------------------------------------------------------------
# Fonts (cached per process: loading a face is the slowest thing we do)
# --------------------------------------------------------------------------


@functools.cache
def find_cjk_font(bold: bool = False) -> Path:
    """Locate Noto Sans CJK (regular or bold); the bold face falls back to regular."""
    for pattern in _FONT_PATTERNS[bold]:
        for root in _FONT_DIRS:
            if root.is_dir():
                found = sorted(root.rglob(pattern))
                if found:
                    return found[0]
    if bold:
        return find_cjk_font(False)
    raise CJKFontNotFoundError(
        "No CJK font found (looked for NotoSansCJK-Regular.ttc under "
        + ", ".join(str(d) for d in _FONT_DIRS)
        + "). The demo pages need Japanese glyphs: install Debian's fonts-noto-cjk "
        "package (sudo apt-get install fonts-noto-cjk; the Makefile does this) and retry."
    )


@functools.cache
def _japanese_face_index(path: Path) -> int:
    """Index of the Japanese face inside a .ttc collection (0 for plain fonts)."""
    if path.suffix.lower() != ".ttc":
        return 0
    for index in range(10):
        try:
            family = ImageFont.truetype(str(path), 12, index=index).getname()[0] or ""
        except OSError:
            break
        if family.endswith(" JP") and "Mono" not in family:
            return index
    return 0


@functools.cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    path = find_cjk_font(bold)
    return ImageFont.truetype(str(path), size, index=_japanese_face_index(path))


# --------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------


def _rgb(hue: float, saturation: float, lightness: float) -> tuple[int, int, int]:
    r, g, b = colorsys.hls_to_rgb((hue % 360) / 360.0, lightness, saturation)
    return (round(r * 255), round(g * 255), round(b * 255))


def _gradient(size: tuple[int, int], top: Colour, bottom: Colour, mode: str) -> Image.Image:
    """Vertical gradient, built in C from Pillow's 256-step ramp."""
    mask = Image.linear_gradient("L").resize(size, Image.Resampling.BILINEAR)
    return Image.composite(Image.new(mode, size, bottom), Image.new(mode, size, top), mask)


@functools.cache
def _screentone(size: tuple[int, int], pitch: int) -> Image.Image:
    """A dot screen mask (255 where ink goes), tiled from one small drawn tile."""
    tile_size = pitch * 24
    tile = Image.new("L", (tile_size, tile_size), 0)
    draw = ImageDraw.Draw(tile)
    radius = pitch * 0.28
    for row in range(24):
        offset = pitch / 2 if row % 2 else 0
        for col in range(25):
            cx, cy = col * pitch + offset, row * pitch + pitch / 2
            draw.ellipse((cx - radius, cy - radius, cx + radius, cy + radius), fill=255)
    screen = Image.new("L", size, 0)
    for y in range(0, size[1], tile_size):
        for x in range(0, size[0], tile_size):
            screen.paste(tile, (x, y))
    return screen


def _grey(rng: random.Random, lo: int = 40, hi: int = 220) -> int:
    return rng.randint(lo, hi)


# --------------------------------------------------------------------------
# Text: horizontal and vertical (tategaki) Japanese
# --------------------------------------------------------------------------

# Presentation forms for vertical writing; the long-vowel mark and dashes
# have no such code point and are drawn rotated instead.
_VERTICAL_FORMS = {
    "、": "︑", "。": "︒", "「": "﹁", "」": "﹂", "…": "︙", "（": "︵", "）": "︶", "，": "︐",
}
_ROTATED = set("ー〜～—")
_TRAILING_PUNCTUATION = set("！？!?…、。っ")
_SMALL_KANA = set("ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ")


@functools.cache
def _rotated_glyph(char: str, size: int) -> Image.Image:
    glyph = Image.new("L", (size, size), 0)
    ImageDraw.Draw(glyph).text((size / 2, size / 2), char, font=font(size), fill=255, anchor="mm")
    return glyph.rotate(-90)


def _wrap(text: str, width: int) -> list[str]:
    """Break text into chunks of ``width`` characters, preferring to break after 、."""
    lines: list[str] = []
    rest = text
    while len(rest) > width:
        cut = rest.rfind("、", 0, width + 1)
        cut = cut + 1 if cut > 0 else width
        lines.append(rest[:cut])
        rest = rest[cut:]
    if rest:
        if lines and all(char in _TRAILING_PUNCTUATION for char in rest):
            lines[-1] += rest  # never leave "！" or "…" alone in a column
        else:
            lines.append(rest)
    return lines


def draw_vertical_text(
    image: Image.Image, columns: Sequence[str], right: float, top: float, size: int, fill: Colour
) -> None:
    """Tategaki: columns run top to bottom, the first column on the right."""
    draw = ImageDraw.Draw(image)
    face = font(size)
    step = size * 1.15
    for c, column in enumerate(columns):
        cx = right - size / 2 - c * step
        for r, char in enumerate(column):
            cy = top + size / 2 + r * size * 1.02
            if char in _ROTATED:
                glyph = _rotated_glyph(char, size)
                image.paste(fill, (round(cx - size / 2), round(cy - size / 2)), glyph)
                continue
            dx = dy = 0.0
            if char in _SMALL_KANA:
                dx, dy = size * 0.12, -size * 0.1
            draw.text((cx + dx, cy + dy), _VERTICAL_FORMS.get(char, char), font=face, fill=fill, anchor="mm")


def _vertical_extent(columns: Sequence[str], size: int) -> tuple[float, float]:
    width = size * 1.15 * (len(columns) - 1) + size
    height = size * 1.02 * max(len(c) for c in columns)
    return width, height


# --------------------------------------------------------------------------
# Balloons and sound effects
# --------------------------------------------------------------------------


def draw_balloon(
    image: Image.Image, rng: random.Random, anchor: Point, bounds: tuple[int, int, int, int], vertical: bool
) -> None:
    """A speech balloon near ``anchor`` with a tail, clamped inside ``bounds``."""
    text = rng.choice(SPEECH_LINES)
    draw = ImageDraw.Draw(image)
    ink: Colour = 0 if image.mode == "L" else (20, 20, 20)
    paper: Colour = 255 if image.mode == "L" else (255, 255, 255)
    if vertical:
        size = rng.choice((22, 24, 26))
        columns = _wrap(text, 6)
        text_w, text_h = _vertical_extent(columns, size)
    else:
        size = rng.choice((24, 26, 28))
        columns = _wrap(text, 9)
        text_w = max(font(size).getlength(line) for line in columns)
        text_h = size * 1.3 * len(columns)
    half_w, half_h = text_w * 0.72 + 24, text_h * 0.72 + 16
    left, top, right, bottom = bounds
    cx = min(max(anchor[0], left + half_w + 4), right - half_w - 4)
    cy = min(max(anchor[1], top + half_h + 4), bottom - half_h - 4)

    # Tail first, so the balloon body covers its base.
    tail_dir = rng.choice((-1, 1))
    tip = (cx + tail_dir * half_w * 0.9, cy + half_h + rng.randint(18, 40))
    base = [
        (cx + tail_dir * half_w * 0.15, cy + half_h * 0.6),
        (cx + tail_dir * half_w * 0.5, cy + half_h * 0.5),
    ]
    draw.polygon([base[0], tip, base[1]], fill=paper, outline=ink, width=3)
    box = (cx - half_w, cy - half_h, cx + half_w, cy + half_h)
    if rng.random() < 0.15:  # a spiky "shout" balloon now and then
        spikes = []
        for k in range(28):
            angle = 2 * math.pi * k / 28
            scale = 1.18 if k % 2 else 0.98
            spikes.append((cx + math.cos(angle) * half_w * scale, cy + math.sin(angle) * half_h * scale))
        draw.polygon(spikes, fill=paper, outline=ink, width=3)
    else:
        draw.ellipse(box, fill=paper, outline=ink, width=3)

    if vertical:
        draw_vertical_text(image, columns, cx + text_w / 2, cy - text_h / 2, size, ink)
    else:
        for i, line in enumerate(columns):
            y = cy - text_h / 2 + size * 1.3 * (i + 0.5)
            draw.text((cx, y), line, font=font(size), fill=ink, anchor="mm")


def draw_sound_effect(image: Image.Image, rng: random.Random, box: tuple[float, float, float, float]) -> None:
    """Big outlined katakana lettering across a panel, tategaki or yokogaki."""
    text = rng.choice(SOUND_EFFECTS)
    size = rng.randint(64, 96)
    ink: Colour = 0 if image.mode == "L" else (15, 15, 15)
    paper: Colour = 255 if image.mode == "L" else (255, 255, 255)
    x0, y0, x1, y1 = box
    face = font(size, bold=True)
    draw = ImageDraw.Draw(image)
    if rng.random() < 0.5 and y1 - y0 > size * len(text):
        x = rng.uniform(x0 + size, max(x0 + size, x1 - size))
        for i, char in enumerate(text):
            y = y0 + size * (0.8 + i * 1.0)
            char = _VERTICAL_FORMS.get(char, char)
            draw.text((x, y), char, font=face, fill=ink, anchor="mm", stroke_width=5, stroke_fill=paper)
    else:
        x = rng.uniform(x0 + size, max(x0 + size, x1 - size * len(text)))
        y = rng.uniform(y0 + size * 0.8, max(y0 + size * 0.8, y1 - size * 0.8))
        draw.text((x, y), text, font=face, fill=ink, anchor="lm", stroke_width=5, stroke_fill=paper)


# --------------------------------------------------------------------------
# Panel content: cheap "drawings" in greyscale
# --------------------------------------------------------------------------


def _background(size: tuple[int, int], rng: random.Random) -> Image.Image:
    style = rng.choice(("white", "flat", "gradient", "gradient", "tone", "speed"))
    w, h = size
    if style == "flat":
        return Image.new("L", size, _grey(rng, 180, 240))
    if style == "gradient":
        a, b = _grey(rng, 60, 200), _grey(rng, 200, 255)
        return _gradient(size, a, b, "L") if rng.random() < 0.5 else _gradient(size, b, a, "L")
    if style == "tone":
        panel = Image.new("L", size, 255)
        panel.paste(_grey(rng, 120, 190), (0, 0), _screentone((w, h), rng.choice((8, 10, 12))))
        return panel
    panel = Image.new("L", size, 255)
    if style == "speed":  # focus lines converging on a point
        draw = ImageDraw.Draw(panel)
        fx, fy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
        reach = math.hypot(w, h)
        for k in range(rng.randint(36, 60)):
            angle = 2 * math.pi * k / 60 + rng.uniform(-0.05, 0.05)
            inner = rng.uniform(0.25, 0.45) * min(w, h)
            start = (fx + math.cos(angle) * inner, fy + math.sin(angle) * inner)
            end = (fx + math.cos(angle) * reach, fy + math.sin(angle) * reach)
            draw.line([start, end], fill=rng.randint(0, 90), width=rng.randint(1, 4))
    return panel


def _figure(draw: ImageDraw.ImageDraw, rng: random.Random, cx: float, base: float, scale: float) -> None:
    """A chibi-ish character: body, head, hair, eyes. ``base`` is the feet line."""
    body_top = base - 1.6 * scale
    skin, hair, cloth = _grey(rng, 225, 250), _grey(rng, 10, 90), _grey(rng, 90, 200)
    draw.polygon(
        [
            (cx - 0.55 * scale, base),
            (cx + 0.55 * scale, base),
            (cx + 0.3 * scale, body_top),
            (cx - 0.3 * scale, body_top),
        ],
        fill=cloth,
        outline=0,
    )
    r = 0.5 * scale
    head_cy = body_top - r * 0.8
    draw.ellipse((cx - r, head_cy - r, cx + r, head_cy + r), fill=skin, outline=0, width=2)
    hair_style = rng.choice(("bowl", "long", "spiky", "bun"))
    if hair_style == "long":  # hair falling behind the shoulders, drawn first
        draw.rectangle((cx - r * 1.05, head_cy, cx + r * 1.05, head_cy + r * 1.6), fill=hair, outline=0)
        draw.ellipse((cx - r, head_cy - r, cx + r, head_cy + r), fill=skin, outline=0, width=2)
    if hair_style == "spiky":
        spikes = [(cx - r * 1.1, head_cy)]
        for k in range(7):
            spikes.append((cx - r + (k + 0.5) * r * 2 / 7, head_cy - r * rng.uniform(1.25, 1.5)))
            spikes.append((cx - r + (k + 1) * r * 2 / 7, head_cy - r * 0.85))
        spikes.append((cx + r * 1.1, head_cy))
        draw.polygon(spikes, fill=hair, outline=0)
    else:
        hair_box = (cx - r * 1.08, head_cy - r * 1.12, cx + r * 1.08, head_cy + r * 0.9)
        draw.chord(hair_box, 180, 360, fill=hair, outline=0)
    if hair_style == "bun":
        bun_box = (cx - r * 0.35, head_cy - r * 1.55, cx + r * 0.35, head_cy - r * 0.85)
        draw.ellipse(bun_box, fill=hair, outline=0)
    eye = max(2.0, r * 0.16)
    for side in (-1, 1):
        ex = cx + side * r * 0.38
        eye_top = head_cy + r * 0.05
        draw.ellipse((ex - eye * 0.7, eye_top, ex + eye * 0.7, eye_top + eye * 2), fill=0)
    if rng.random() < 0.5:
        mouth_box = (cx - r * 0.3, head_cy + r * 0.35, cx + r * 0.3, head_cy + r * 0.7)
        draw.arc(mouth_box, 20, 160, fill=0, width=2)


def _scene(panel: Image.Image, rng: random.Random) -> None:
    """Fill a panel with one of a few motifs (people, city, landscape, close-up, object)."""
    w, h = panel.size
    draw = ImageDraw.Draw(panel)
    motif = rng.choice(("figure", "figure", "duo", "city", "landscape", "closeup", "object"))
    if motif in ("figure", "duo"):
        count = 1 if motif == "figure" else 2
        scale = min(h / 2.6, w / (1.6 * count + 0.4)) * rng.uniform(0.7, 1.0)
        for i in range(count):
            cx = w * (i + 1) / (count + 1) + rng.uniform(-0.08, 0.08) * w
            _figure(draw, rng, cx, h + scale * rng.uniform(0.0, 0.5), scale)
    elif motif == "city":
        x = rng.uniform(-20, 0)
        while x < w:
            bw, bh = rng.uniform(0.1, 0.25) * w, rng.uniform(0.3, 0.85) * h
            tone = _grey(rng, 30, 160)
            draw.rectangle((x, h - bh, x + bw, h), fill=tone, outline=0)
            for wy in range(int(h - bh + 10), int(h - 10), 22):
                for wx in range(int(x + 6), int(x + bw - 10), 16):
                    if rng.random() < 0.6:
                        draw.rectangle((wx, wy, wx + 7, wy + 10), fill=min(255, tone + 70))
            x += bw + rng.uniform(2, 12)
    elif motif == "landscape":
        horizon = h * rng.uniform(0.45, 0.7)
        if rng.random() < 0.6:
            r = min(w, h) * rng.uniform(0.08, 0.16)
            sx, sy = rng.uniform(0.2, 0.8) * w, horizon * rng.uniform(0.25, 0.6)
            draw.ellipse((sx - r, sy - r, sx + r, sy + r), fill=_grey(rng, 200, 250), outline=0, width=2)
        peaks = [(0, h), (0, horizon)]
        steps = rng.randint(3, 6)
        for i in range(1, steps + 1):
            peaks.append((w * i / steps, horizon - rng.uniform(0, 0.3) * h))
        peaks.append((w, h))
        draw.polygon(peaks, fill=_grey(rng, 60, 140), outline=0)
        draw.line([(0, horizon + 12), (w, horizon + 18)], fill=0, width=2)
    elif motif == "closeup":
        r = min(w, h) * rng.uniform(0.25, 0.4)
        cx, cy = w / 2, h / 2
        draw.ellipse((cx - 2 * r, cy - r, cx + 2 * r, cy + r), fill=255, outline=0, width=4)
        draw.ellipse((cx - r * 0.8, cy - r * 0.8, cx + r * 0.8, cy + r * 0.8), fill=_grey(rng, 20, 80))
        draw.ellipse((cx - r * 0.35, cy - r * 0.6, cx - r * 0.05, cy - r * 0.3), fill=255)
        draw.arc((cx - 2.1 * r, cy - 1.8 * r, cx + 2.1 * r, cy + 0.4 * r), 200, 340, fill=0, width=5)
    else:
        cx, cy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
        for k in range(rng.randint(3, 7), 0, -1):
            r = k * min(w, h) * 0.07
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_grey(rng, 30, 250), outline=0, width=2)


# --------------------------------------------------------------------------
# Panel layouts (possibly slanted gutters)
# --------------------------------------------------------------------------


def _intersect(h_line: tuple[float, float], v_line: tuple[float, float]) -> Point:
    """Cross ``y = a + b*x`` with ``x = c + e*y``."""
    a, b = h_line
    c, e = v_line
    x = (c + e * a) / (1 - e * b)
    return (x, a + b * x)


def panel_layout(
    rng: random.Random, area: tuple[int, int, int, int], spread: bool = False
) -> list[list[Point]]:
    """3 to 6 panels (more on a spread) as quadrilaterals with white gutters."""
    x0, y0, x1, y1 = area
    w, h = x1 - x0, y1 - y0
    gutter = 14
    if spread:
        row_cols = [1, rng.choice((2, 3, 4))] if rng.random() < 0.5 else [rng.choice((3, 4)), 1]
    else:
        row_cols = [rng.choice((1, 2, 2, 3)) for _ in range(rng.choice((2, 3, 3)))]
        while sum(row_cols) < 3:
            row_cols[rng.randrange(len(row_cols))] += 1
        while sum(row_cols) > 6:
            row_cols[row_cols.index(max(row_cols))] -= 1
    weights = [rng.uniform(0.7, 1.3) + (0.8 if spread and cols == 1 else 0) for cols in row_cols]
    # Row boundaries as lines y = a + b*x; inner ones may slant.
    bounds: list[tuple[float, float]] = [(y0, 0.0)]
    acc = 0.0
    for weight in weights[:-1]:
        acc += weight
        mid = y0 + h * acc / sum(weights)
        slope = rng.uniform(-0.08, 0.08) if rng.random() < 0.35 else 0.0
        bounds.append((mid - slope * (x0 + w / 2), slope))
    bounds.append((y1, 0.0))

    panels: list[list[Point]] = []
    for row, cols in enumerate(row_cols):
        top, bottom = bounds[row], bounds[row + 1]
        top_off = gutter / 2 if row > 0 else 0.0
        bottom_off = gutter / 2 if row < len(row_cols) - 1 else 0.0
        top = (top[0] + top_off, top[1])
        bottom = (bottom[0] - bottom_off, bottom[1])
        mid_y = (top[0] + bottom[0]) / 2 + top[1] * (x0 + w / 2)
        verticals: list[tuple[float, float]] = [(x0, 0.0)]
        for k in range(1, cols):
            mid_x = x0 + w * k / cols + rng.uniform(-0.08, 0.08) * w
            slope = rng.uniform(-0.18, 0.18) if rng.random() < 0.4 else 0.0
            verticals.append((mid_x - slope * mid_y, slope))
        verticals.append((x1, 0.0))
        for k in range(cols):
            left = verticals[k]
            right = verticals[k + 1]
            left = (left[0] + (gutter / 2 if k > 0 else 0.0), left[1])
            right = (right[0] - (gutter / 2 if k < cols - 1 else 0.0), right[1])
            corners = [(top, left), (top, right), (bottom, right), (bottom, left)]
            panels.append([_intersect(h_line, v_line) for h_line, v_line in corners])
    return panels


def _fill_panel(page: Image.Image, polygon: list[Point], rng: random.Random) -> tuple[int, int, int, int]:
    """Draw a scene clipped to ``polygon``; return the panel's bounding box."""
    xs, ys = [p[0] for p in polygon], [p[1] for p in polygon]
    box = (math.floor(min(xs)), math.floor(min(ys)), math.ceil(max(xs)), math.ceil(max(ys)))
    size = (max(1, box[2] - box[0]), max(1, box[3] - box[1]))
    content = _background(size, rng)
    _scene(content, rng)
    mask = Image.new("L", size, 0)
    ImageDraw.Draw(mask).polygon([(x - box[0], y - box[1]) for x, y in polygon], fill=255)
    if page.mode != "L":
        content = content.convert(page.mode)
    page.paste(content, box[:2], mask)
    return box


def _draw_borders(page: Image.Image, panels: list[list[Point]], ink: Colour) -> None:
    draw = ImageDraw.Draw(page)
    for polygon in panels:
        draw.line([*polygon, polygon[0]], fill=ink, width=4, joint="curve")


def _page_number(page: Image.Image, number: int, ink: Colour) -> None:
    w, h = page.size
    ImageDraw.Draw(page).text((w / 2, h - 26), str(number), font=font(18), fill=ink, anchor="mm")


def _interior(
    page: Image.Image, rng: random.Random, area: tuple[int, int, int, int], spread: bool, vertical: bool
) -> None:
    """Panels, borders, balloons and an occasional sound effect inside ``area``."""
    panels = panel_layout(rng, area, spread)
    boxes = [_fill_panel(page, polygon, rng) for polygon in panels]
    ink: Colour = 0 if page.mode == "L" else (20, 20, 20)
    _draw_borders(page, panels, ink)
    if rng.random() < 0.4:
        draw_sound_effect(page, rng, boxes[rng.randrange(len(boxes))])
    for box in rng.sample(boxes, k=min(len(boxes), rng.choice((1, 2, 2, 3)))):
        anchor = (rng.uniform(box[0], box[2]), box[1] + rng.uniform(0.2, 0.45) * (box[3] - box[1]))
        draw_balloon(page, rng, anchor, (area[0], area[1], area[2], area[3]), vertical)


# --------------------------------------------------------------------------
# Page kinds
# --------------------------------------------------------------------------


def _manga_page(size: tuple[int, int], rng: random.Random, number: int, spread: bool) -> Image.Image:
    page = Image.new("L", size, 255)
    w, h = size
    _interior(page, rng, (40, 48, w - 40, h - 64), spread, vertical=True)
    _page_number(page, number, 0)
    return page


def _cover(chapter: ChapterPlan, rng: random.Random, size: tuple[int, int] = PAGE_SIZE) -> Image.Image:
    """A colour, cover-like first page: title, author, chapter badge, a figure."""
    series = chapter.series
    hue = chapter.hue
    w, h = size
    light, deep, accent = _rgb(hue, 0.55, 0.86), _rgb(hue, 0.6, 0.32), _rgb(hue + 150, 0.75, 0.55)
    cover = _gradient(size, light, deep, "RGB")
    draw = ImageDraw.Draw(cover)

    # Accent shapes: a big disc and a diagonal band.
    r = w * rng.uniform(0.3, 0.42)
    cx, cy = rng.uniform(0.3, 0.7) * w, h * rng.uniform(0.35, 0.5)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_rgb(hue + 20, 0.65, 0.7))
    band_y = h * rng.uniform(0.55, 0.7)
    draw.polygon([(0, band_y), (w, band_y - 120), (w, band_y - 60), (0, band_y + 60)], fill=accent)

    # A silhouette character, drawn in greyscale then tinted with the hue.
    figure = Image.new("L", (w, h), 255)
    _figure(ImageDraw.Draw(figure), rng, w * rng.uniform(0.35, 0.55), h * 0.98, h * 0.3)
    tinted = ImageOps.colorize(figure, black=_rgb(hue, 0.5, 0.12), white=(255, 255, 255))
    cover.paste(tinted, (0, 0), ImageOps.invert(figure).point(lambda v: 255 if v > 0 else 0))

    # Title: tategaki on the right for short titles, otherwise across the top.
    title = series.title
    ink, outline = (255, 255, 255), _rgb(hue, 0.7, 0.18)
    if len(title) <= 10 and series.style == "manga":
        size_px = min(84, int((h * 0.78) / len(title)))
        x = w - 40 - size_px / 2
        face = font(size_px, bold=True)
        for i, char in enumerate(title):
            glyph_char = _VERTICAL_FORMS.get(char, char)
            y = 60 + size_px * (0.5 + i * 1.02)
            if char in _ROTATED:
                glyph = _rotated_glyph(char, size_px)
                cover.paste(ink, (round(x - size_px / 2), round(y - size_px / 2)), glyph)
                continue
            draw.text(
                (x, y), glyph_char, font=face, fill=ink, anchor="mm", stroke_width=6, stroke_fill=outline
            )
    else:
        line_count = math.ceil(len(title) / 7)
        lines = _wrap(title, math.ceil(len(title) / line_count))
        size_px = min(88, int((w - 80) / max(len(line) for line in lines)))
        face = font(size_px, bold=True)
        for i, line in enumerate(lines):
            draw.text(
                (w / 2, 210 + i * size_px * 1.15),
                line,
                font=face,
                fill=ink,
                anchor="mm",
                stroke_width=6,
                stroke_fill=outline,
            )

    # Chapter badge, chapter title and credits.
    badge = f"第{chapter.number}話"
    draw.rounded_rectangle((28, 28, 200, 92), radius=16, fill=accent, outline=(255, 255, 255), width=3)
    draw.text((114, 60), badge, font=font(30, bold=True), fill=(255, 255, 255), anchor="mm")
    draw.text((36, 120), chapter.title, font=font(26), fill=_rgb(hue, 0.6, 0.18), anchor="lm")
    if series.penciller == series.writer:
        credit = f"作・{series.writer}"
    else:
        credit = f"原作・{series.writer}　作画・{series.penciller}"
    draw.rectangle((0, h - 96, w, h), fill=_rgb(hue, 0.5, 0.15))
    draw.text((w / 2, h - 62), credit, font=font(30, bold=True), fill=(255, 255, 255), anchor="mm")
    draw.text((w / 2, h - 24), series.publisher, font=font(18), fill=_rgb(hue, 0.4, 0.8), anchor="mm")
    return cover


def _webtoon_strip(chapter: ChapterPlan, page: PagePlan, rng: random.Random) -> Image.Image:
    """A tall colour strip: stacked full-width panels with generous gaps."""
    hue = chapter.hue
    size = (page.width, page.height)
    strip = _gradient(size, _rgb(hue, 0.35, 0.96), _rgb(hue + 40, 0.35, 0.9), "RGB")
    top = 40
    if page.kind == "cover":
        strip.paste(_cover(chapter, rng), (0, 0))
        top = PAGE_SIZE[1] + 60
    draw = ImageDraw.Draw(strip)
    w, h = size
    y = top
    while y < h - 300:
        panel_h = min(rng.randint(380, 620), h - 80 - y)
        box = (30, y, w - 30, y + panel_h)
        grey = Image.new("L", (box[2] - box[0], panel_h), 255)
        grey.paste(_background(grey.size, rng), (0, 0))
        _scene(grey, rng)
        tinted = ImageOps.colorize(grey, black=_rgb(hue, 0.55, 0.15), white=_rgb(hue + 10, 0.5, 0.97))
        strip.paste(tinted, box[:2])
        draw.rectangle(box, outline=(30, 30, 30), width=3)
        if rng.random() < 0.8:
            anchor = (rng.uniform(box[0] + 100, box[2] - 100), box[1] + rng.uniform(0.15, 0.35) * panel_h)
            draw_balloon(strip, rng, anchor, box, vertical=False)
        y += panel_h + rng.randint(110, 220)
    _page_number(strip, page.index + 1, (90, 90, 90))
    return strip


def render_page(chapter: ChapterPlan, page: PagePlan, seed: int) -> Image.Image:
    """Render one planned page; identical inputs always give identical pixels."""
    rng = random.Random(f"{seed}:{chapter.series.key}:{chapter.number}:{page.index}")
    if chapter.series.style == "webtoon":
        return _webtoon_strip(chapter, page, rng)
    if page.kind == "cover":
        return _cover(chapter, rng, (page.width, page.height))
    return _manga_page((page.width, page.height), rng, page.index + 1, spread=page.is_spread)
