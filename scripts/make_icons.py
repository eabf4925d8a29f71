"""Draws the app icons (PNG, ICO, SVG) and the default share image.

Run by hand when the brand changes (`python scripts/make_icons.py`); the
outputs under assets/icons/ are committed. Needs Debian's fonts-noto-cjk."""

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
        '<text x="32" y="45" font-size="40" text-anchor="middle" fill="#fff" font-weight="700" '
        'font-family="Hiragino Sans, Noto Sans CJK JP, sans-serif">漫</text></svg>\n',
        encoding="utf-8",
    )


if __name__ == "__main__":
    main()
