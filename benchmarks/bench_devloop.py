"""The edit loop of `make dev` (issue 31): from saving a page's Python file
to the browser showing the change.

The site runs as `make dev` runs it (Reflex's dev mode: Vite with hot module
replacement on one port, the backend reloading on the next), on a demo
library in a temporary data folder, with its own build folder. Chromium
holds the home page open; the benchmark changes one line of text in
manga_app/pages/home/view.py (and puts it back afterwards, whatever happens)
and times until the open page shows the new text, without reloading it
itself. Figures: the median and the worst of EDITS saves; target: median
<= 5 s for a text change in a view. Also the start-up, from the command to
the home page showing its text (the first compile of a fresh build folder),
and the errors the open page logged from its first visit to the last edit
(target: none). A save that re-rendered the page from its root (a
context.jsx that changed at every compile, platform/stable_compile.py) went
through React's removeChild error, and at times never showed the edit.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

import httpx

from benchmarks._site import CHROME_ARGS, CHROMIUM, PYTHON, ROOT, require_chromium, serve, tool_env

PORT = int(os.environ.get("BENCH_DEVLOOP_PORT", "3298"))  # the backend on PORT + 1
WEB_DIR = ".web-bench-devloop"
EDITS = 3
TARGET_SECONDS = 5.0
VIEW = ROOT / "manga_app/pages/home/view.py"
LEAD = "日本語の生漫画を、スマホでも快適に。"
WAIT_MS = 180_000


def _web_dir() -> None:
    """The build folder, its packages taken from `make run`'s (hard links): no download."""
    web = ROOT / WEB_DIR
    if not (web / "node_modules").exists() and (ROOT / ".web/node_modules").is_dir():
        web.mkdir(exist_ok=True)
        subprocess.run(["cp", "-al", str(ROOT / ".web/node_modules"), str(web / "node_modules")], check=True)
        for name in ("package.json", "bun.lock", "reflex.install_frontend_packages.cached"):
            if (ROOT / ".web" / name).is_file():
                shutil.copy2(ROOT / ".web" / name, web / name)


def _demo(env: dict[str, str], data: Path) -> None:
    for command in (["manga_app.demo", str(data / "demo"), "--series", "4"], ["manga_app.catalogue", "import", str(data / "demo")]):
        subprocess.run([PYTHON, "-m", *command], cwd=ROOT, env=env, check=True, capture_output=True)


def _require_covers(page) -> None:
    """The home page's covers are drawn (they come from the backend's port, not Vite's)."""
    cover = page.locator("img.cover").first
    cover.scroll_into_view_if_needed(timeout=WAIT_MS)
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=cover.element_handle(), timeout=30_000)


def _edits(url: str) -> tuple[float, list[float], int, list[str]]:
    from playwright.sync_api import sync_playwright

    original = VIEW.read_text(encoding="utf-8")
    if LEAD not in original:
        raise RuntimeError(f"{VIEW} no longer holds {LEAD!r}: update the benchmark's LEAD")
    seconds = []
    kept = 0  # edits shown by hot replacement, the open page not reloaded
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            errors: list[str] = []
            page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
            page.on("pageerror", lambda error: errors.append(str(error)))
            started = time.monotonic()
            page.goto(url + "/", timeout=WAIT_MS)
            page.get_by_text(LEAD).wait_for(timeout=WAIT_MS)
            first = time.monotonic() - started
            _require_covers(page)
            page.wait_for_timeout(2000)  # let the first visit settle (fonts, the websocket)
            page.evaluate("window.__devloop_kept = true")
            try:
                for edit in range(1, EDITS + 1):
                    text = f"日本語の生漫画を、スマホでも快適に（{edit}回目の編集）。"
                    saved = time.monotonic()
                    VIEW.write_text(original.replace(LEAD, text), encoding="utf-8")
                    page.get_by_text(text).wait_for(timeout=WAIT_MS)
                    seconds.append(time.monotonic() - saved)
                    kept += page.evaluate("window.__devloop_kept === true")
                    page.wait_for_timeout(1000)
            finally:
                VIEW.write_text(original, encoding="utf-8")
        finally:
            browser.close()
    return first, seconds, kept, errors


def run(results_dir: Path) -> dict:
    require_chromium("the edit loop")
    # `make dev`'s set-up besides the demo: the antd stylesheet the app links (a fresh clone has none).
    subprocess.run(["make", "--no-print-directory", "dev-assets"], cwd=ROOT, check=True)
    _web_dir()
    with tempfile.TemporaryDirectory(prefix="bench-devloop-") as temp:
        data = Path(temp)
        env = tool_env(PORT=str(PORT), DATA_DIR=str(data), REFLEX_DB_URL=f"sqlite:///{data / 'bench.db'}")
        _demo(env, data)
        # Exactly what `make dev` serves, after its set-up.
        command = ["make", "--no-print-directory", "dev-serve", f"PORT={PORT}", f"DEV_WEB_DIR={WEB_DIR}"]
        started = time.monotonic()
        with serve(command, ROOT, env, f"http://localhost:{PORT + 1}"):
            backend = time.monotonic() - started
            with contextlib.suppress(httpx.HTTPError):
                httpx.get(f"http://localhost:{PORT}/", timeout=WAIT_MS / 1000)
            first, seconds, kept, errors = _edits(f"http://localhost:{PORT}")
    median = statistics.median(seconds)
    for error in errors:
        print(f"  devloop: the page logged: {error.splitlines()[0][:200]}")
    return {"figures": [
        {"figure": "save to browser, a text change in a page's view (median)", "value": round(median, 2), "unit": "s",
         "target": f"<= {TARGET_SECONDS:.0f} s", "pass": median <= TARGET_SECONDS},
        {"figure": "save to browser, the slowest of the edits", "value": round(max(seconds), 2), "unit": "s"},
        {"figure": f"edits shown without reloading the page (of {EDITS})", "value": kept, "unit": ""},
        {"figure": "errors the open page logged, first visit to last edit", "value": len(errors), "unit": "",
         "target": "0", "pass": not errors},
        {"figure": "start-up, the command to the backend answering", "value": round(backend, 1), "unit": "s"},
        {"figure": "then the first visit to the home page's text", "value": round(first, 1), "unit": "s"},
    ]}
