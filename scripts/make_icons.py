"""Draws the app icons (PNG, ICO, SVG) and the default share image.

Run by hand when the brand changes (`python scripts/make_icons.py`); the
outputs under assets/icons/ are committed. Needs Debian's fonts-noto-cjk and,
for the SVG icon's glyph outline, fontTools (`pip install fonttools`)."""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

PRIMARY = (248, 65, 59)
ICONS = Path(__file__).resolve().parent.parent / "assets" / "icons"
FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"
GLYPH = "漫"


def draw_icon(size: int, *, maskable: bool = False) -> Image.Image:
    image = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        # Maskable icons fill the square; the glyph stays in the 80% safe zone.
        draw.rectangle((0, 0, size, size), fill=PRIMARY)
        glyph_size = int(size * 0.5)
    else:
        draw.rounded_rectangle((0, 0, size - 1, size - 1), radius=size // 5, fill=PRIMARY)
        glyph_size = int(size * 0.66)
    font = ImageFont.truetype(FONT, glyph_size, index=0)
    draw.text((size / 2, size / 2), GLYPH, font=font, fill="white", anchor="mm")
    return image


def draw_share_image() -> Image.Image:
    image = Image.new("RGB", (1200, 630), "white")
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, 1200, 630), fill=(255, 245, 244))
    icon = draw_icon(260)
    image.paste(icon, (120, 185), icon)
    font = ImageFont.truetype(FONT, 96, index=0)
    small = ImageFont.truetype(FONT.replace("Bold", "Regular"), 40, index=0)
    draw.text((430, 250), "漫画ひろば", font=font, fill=PRIMARY)
    draw.text((434, 380), "日本語の生漫画をスマホで快適に", font=small, fill=(60, 60, 60))
    return image


def glyph_path(char: str, size: float, center: tuple[float, float]) -> str:
    """The glyph's outline as SVG path data, `size` units to the em, its
    bounding box centred on `center`. An outline, not <text>: the icon looks
    the same whatever fonts the viewer has, and the browser lays out no text
    (with a font search for a CJK glyph) to draw it."""
    from fontTools.pens.boundsPen import BoundsPen
    from fontTools.pens.svgPathPen import SVGPathPen
    from fontTools.pens.transformPen import TransformPen
    from fontTools.ttLib import TTCollection

    font = TTCollection(FONT)[0]
    glyphs = font.getGlyphSet()
    glyph = glyphs[font.getBestCmap()[ord(char)]]
    bounds = BoundsPen(glyphs)
    glyph.draw(bounds)
    x0, y0, x1, y1 = bounds.bounds
    scale = size / font["head"].unitsPerEm
    # Font units grow upwards, SVG's downwards.
    dx, dy = center[0] - (x0 + x1) / 2 * scale, center[1] + (y0 + y1) / 2 * scale
    pen = SVGPathPen(glyphs, ntos=lambda value: f"{value:.2f}".rstrip("0").rstrip("."))
    glyph.draw(TransformPen(pen, (scale, 0, 0, -scale, dx, dy)))
    return pen.getCommands()


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        draw_icon(size).save(ICONS / f"icon-{size}.png", optimize=True)
    draw_icon(512, maskable=True).save(ICONS / "icon-maskable-512.png", optimize=True)
    draw_icon(180, maskable=True).convert("RGB").save(ICONS / "apple-touch-icon.png", optimize=True)
    draw_icon(48).save(ICONS.parent / "favicon.ico", sizes=[(16, 16), (32, 32), (48, 48)])
    draw_share_image().save(ICONS / "og-default.png", optimize=True)
    (ICONS / "icon.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64">'
        '<rect width="64" height="64" rx="13" fill="#f8413b"/>'
        f'<path fill="#fff" d="{glyph_path(GLYPH, 42, (32, 32))}"/></svg>\n',
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
