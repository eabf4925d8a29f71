"""Visual constants shared by Python code (the antd theme itself lives in
assets/antd_theme.json, read by the browser and the CSS extraction)."""

import json
from pathlib import Path

_THEME_FILE = Path(__file__).resolve().parents[2] / "assets" / "antd_theme.json"
ANTD_THEME: dict = json.loads(_THEME_FILE.read_text(encoding="utf-8"))

PRIMARY_COLOR: str = ANTD_THEME["token"]["colorPrimary"]
FONT_SIZE: int = ANTD_THEME["token"]["fontSize"]
BACKGROUND_COLOR = "#ffffff"
