"""The reader: first page painted (LCP) against a static page showing the same image, bytes per chapter, layout shift (issue 5), turn to drawn on a slow link (issue 17).

The site is built and served as `make run` does (production build, one
port) with the e2e-sized demo library. The floor is a plain static HTML file
written into that build's static folder, so the same server serves it as a
file from the same origin, showing the chapter's first image from /media:
what the reader's first paint would cost without any framework. Both are
loaded in turns in fresh Chromium contexts (cold cache, 390x844); the
figures are medians (and, beside the target's ratio of medians, the median
of each reader load's ratio to the floor load just before it), unthrottled,
and again on a throttled phone (benchmarks/reader_lcp.py). Targets: reader
LCP on the phone profile within 1.1x of the floor as the median of at least
20 paired loads (issue 37); cumulative layout shift 0 while
scrolling whole chapters in the vertical reader and while opening and
paging through one in the paged reader.
"""

from __future__ import annotations

import contextlib
import json
import os
import statistics
from collections.abc import Iterator
from pathlib import Path

import httpx

from benchmarks import reader_lcp, reader_turn
from benchmarks._site import CHROME_ARGS, CHROMIUM, ROOT, served_site

PORT = int(os.environ.get("BENCH_READER_PORT", "3293"))  # another port when several runs share a machine
WEB_DIR = ".web-bench-reader"
SAMPLES = 40  # the machine is noisy: medians of 9 pairs moved by 0.3, of 15 by 0.2, of 25 by 0.15

# The largest image painted, as LCP reports it, read once the page has
# loaded (buffered entries) rather than observed from an init script: an
# init script runs before the page's own first script, so it would add its
# cost (and the creation of the page's JavaScript context) to the reader,
# whose head runs a script, and not to the floor, which has none. Entries
# are recognised by their url: the head's first paint is removed once the
# reader draws its own page, and a removed element reads as null.
LCP_SCRIPT = """() => new Promise((resolve, reject) => {
  let last = null;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.url) last = entry.startTime;
  }).observe({type: 'largest-contentful-paint', buffered: true});
  const started = performance.now();
  const check = () => {
    if (last !== null) setTimeout(() => resolve(last), 300);  // a later, larger candidate would replace it
    else if (performance.now() - started > 30000) reject(new Error('no image painted'));
    else setTimeout(check, 50);
  };
  check();
})"""
# Shifts without recent input (what CLS counts) and every shift at all.
CLS_SCRIPT = """
window.__cls = 0; window.__all_shifts = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    window.__all_shifts += entry.value;
    if (!entry.hadRecentInput) window.__cls += entry.value;
  }
}).observe({type: 'layout-shift', buffered: true});
"""
FLOOR_FILE = "bench-floor.html"


@contextlib.contextmanager
def served_demo() -> Iterator[tuple[str, Path]]:
    """The site with the demo library: its URL and its data folder."""
    with served_site(PORT, WEB_DIR) as (url, data):
        yield url, data


@contextlib.contextmanager
def served_floor(url: str, page: dict) -> Iterator[str]:
    """A static HTML page showing the chapter's first page as the reader
    shows it, written into the build's static folder: the site serves it as
    a file, from the same server and origin as the reader. Where the page
    has an AVIF, the floor offers it as the reader does (a <picture> with
    an AVIF source before the JPEG), so a browser fetches and decodes the
    same file on both pages."""
    path = ROOT / WEB_DIR / "build" / "client" / FLOOR_FILE
    source = f"<source type=image/avif srcset='{page['avif']}'>" if page.get("avif") else ""
    path.write_text(
        "<!doctype html><html lang=ja><head><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width, initial-scale=1'><title>floor</title></head>"
        f"<body style='margin:0;background:#111'><picture>{source}"
        f"<img src='{page['url']}' width={page['width']} height={page['height']} alt='' fetchpriority=high "
        "style='display:block;width:100%;height:auto'></picture></body></html>",
        encoding="utf-8",
    )
    try:
        yield f"{url}/{FLOOR_FILE}"
    finally:
        path.unlink(missing_ok=True)


def _manifests(data: Path) -> dict[tuple[str, str], list[dict]]:
    from manga_app.core import routes
    from manga_app.core.content_key import ensure_dev_content_key
    from manga_app.reader.logic import decrypt_manifest

    key = ensure_dev_content_key(data / "content_key")
    found = {}
    for path in sorted((data / "published" / "manifests").glob("*/*.json")):
        found[(path.parent.name, routes.parse_unit_segment(path.stem))] = decrypt_manifest(path.read_bytes(), key)
    return found


def _lcp(browser, url: str) -> float:
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(url)
        lcp = float(page.evaluate(LCP_SCRIPT))
        # Let the page finish (the reader's app loads after its first page)
        # so its work does not spill into the next measurement.
        page.wait_for_load_state("networkidle")
        return lcp
    finally:
        context.close()


def _cls_scrolling(browser, url: str, settings: str | None) -> float:
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        if settings:
            page.add_init_script(f"localStorage.setItem('manga_reader_settings', {json.dumps(settings)})")
        page.add_init_script(CLS_SCRIPT)
        page.goto(url)
        page.wait_for_selector(".reader-strip img")
        while not page.evaluate("window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2"):
            page.mouse.wheel(0, 600)
            page.wait_for_timeout(120)
        page.wait_for_timeout(500)
        return float(page.evaluate("window.__cls"))
    finally:
        context.close()


def _cls_paging(browser, url: str, pages: int) -> tuple[float, float]:
    """Opening a chapter in the paged reader (the head's first paint, then the
    reader's own page) and turning every page: CLS, and every shift at all
    (page turns are input, which CLS leaves out)."""
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.add_init_script(CLS_SCRIPT)
        page.goto(url)
        page.wait_for_selector(".reader-stage img")
        page.wait_for_function("() => !document.getElementById('reader-first-paint')")
        page.wait_for_timeout(500)
        for _ in range(pages):
            page.keyboard.press("ArrowLeft")
            page.wait_for_function("() => { const e = document.querySelector('.reader-stage img, .reader-end'); return !!e }")
            page.wait_for_timeout(120)
        page.wait_for_timeout(500)
        return float(page.evaluate("window.__cls")), float(page.evaluate("window.__all_shifts"))
    finally:
        context.close()


def _bytes(url: str, manifests: dict, field: str) -> dict[str, int]:
    sizes = {}
    with httpx.Client(base_url=url, timeout=10) as client:
        for (slug, number), pages in manifests.items():
            sizes[f"{slug}/{number}"] = sum(len(client.get(page[field]).content) for page in pages)
    return sizes


def run(results_dir: Path, lcp_only: bool = False) -> dict:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"no Chromium at {CHROMIUM}")
    results_dir.mkdir(parents=True, exist_ok=True)  # a folder named on the command line may be new
    with served_demo() as (url, data):
        manifests = _manifests(data)
        # A manga chapter (paged), the one the LCP comparison opens.
        (slug, number), pages = next((key, value) for key, value in manifests.items() if value[0]["height"] < 2 * value[0]["width"])
        first = pages[0]
        chapter_url = f"{url}/{slug}-ch-{number}"
        webtoon = next(key for key, value in manifests.items() if value[0]["height"] >= 2 * value[0]["width"])
        with served_floor(url, first) as floor_url, sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
            phone_figures, phone_detail = reader_lcp.measure(browser, floor_url, chapter_url)
            if lcp_only:
                browser.close()
                (results_dir / "reader_lcp_details.json").write_text(json.dumps(phone_detail, indent=1) + "\n")
                return {"figures": phone_figures}
            floor, reader = reader_lcp.alternated(_lcp, browser, floor_url, chapter_url, SAMPLES)
            paged_cls, paged_all = _cls_paging(browser, chapter_url, len(pages))
            turn_figures, turn_detail = reader_turn.measure(browser, chapter_url, pages)
            cls = {
                "webtoon chapter (vertical)": _cls_scrolling(browser, f"{url}/{webtoon[0]}-ch-{webtoon[1]}", None),
                "manga chapter in vertical mode": _cls_scrolling(browser, chapter_url, json.dumps({"manga_mode": "vertical"})),
                "manga chapter opened and paged through (paged)": paged_cls,
            }
            browser.close()
        full, saver = _bytes(url, manifests, "url"), _bytes(url, manifests, "saver_url")
    reader_ms, floor_ms = statistics.median(reader), statistics.median(floor)
    ratio = reader_ms / floor_ms if floor_ms else float("inf")
    # Each reader load beside the floor load just before it: what a slower
    # or busier stretch of the run does to both cancels out.
    paired = statistics.median(r / f for r, f in zip(reader, floor, strict=True) if f)
    detail = {"chapter": chapter_url, "floor": floor_url, "reader_lcp_ms": reader, "floor_lcp_ms": floor, "cls": cls,
              "paged_all_shifts_input_included": paged_all, "bytes_full": full, "bytes_saver": saver,
              "slow_link": turn_detail, "phone_profile": phone_detail}
    (results_dir / "reader_details.json").write_text(json.dumps(detail, ensure_ascii=False, indent=2) + "\n")
    chapters = len(full)
    figures = [
        {"figure": "reader first page LCP (median)", "value": round(reader_ms, 1), "unit": "ms"},
        {"figure": "static page LCP, same image (median)", "value": round(floor_ms, 1), "unit": "ms"},
        {"figure": "reader LCP / static floor, unthrottled", "value": round(ratio, 2)},
        {"figure": "reader LCP / static floor, unthrottled, median of paired loads", "value": round(paired, 2)},
        *phone_figures,
        {"figure": "bytes per chapter, full quality (mean)", "value": round(sum(full.values()) / chapters), "unit": "B"},
        {"figure": "bytes per chapter, data saver (mean)", "value": round(sum(saver.values()) / chapters), "unit": "B"},
        {"figure": "data saver / full bytes", "value": round(sum(saver.values()) / sum(full.values()), 3)},
    ]
    for name, value in cls.items():
        figures.append({"figure": f"CLS, {name}", "value": round(value, 4), "target": "0", "pass": value == 0})
    figures.append({"figure": "layout shift paging through, input included (paged)", "value": round(paged_all, 4), "target": "0", "pass": paged_all == 0})
    figures.extend(turn_figures)
    return {"figures": figures}


if __name__ == "__main__":
    import sys

    # --lcp-only: the phone profile's LCP pairs alone (while working on the reader's first paint).
    args = [arg for arg in sys.argv[1:] if arg != "--lcp-only"]
    figures = run(Path(args[0]) if args else ROOT / "benchmarks/results", lcp_only="--lcp-only" in sys.argv)
    print(json.dumps(figures, ensure_ascii=False, indent=2))
