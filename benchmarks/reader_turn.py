"""The reader on a slow link (issue 17): how long a page turned to three
seconds after opening a chapter takes to be drawn, and in what order and
how many at once the chapter's pages were requested.

Chromium's own throttling (DevTools Network.emulateNetworkConditions:
150 ms latency, 1.6 Mbit/s both ways) applies from before the chapter is
opened, so the app's scripts share the link with the pages, as they would."""

from __future__ import annotations

import statistics

LATENCY_MS = 150
BYTES_PER_SECOND = 1_600_000 // 8
TURN_AT_MS = 3000
TARGET_MS = 300

# Page turned with the key (the next page in right-to-left reading); the
# time from the key to the frame after that page's image is complete.
TURN_SCRIPT = """(index) => new Promise((resolve) => {
  const started = performance.now();
  const image = () => document.querySelector(`.reader-stage img[data-page-index="${index}"]`);
  const check = () => {
    const shown = image();
    if (shown && shown.complete && shown.naturalWidth > 0) {
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now() - started)));
    } else requestAnimationFrame(check);
  };
  window.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowLeft", bubbles: true}));
  check();
})"""


def _throttle(page) -> None:
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": LATENCY_MS, "downloadThroughput": BYTES_PER_SECOND, "uploadThroughput": BYTES_PER_SECOND},
    )


# A manifest page's image fields: the reader asks for one of them (AVIF or the fallback, by width).
IMAGE_FIELDS = ("url", "avif", "saver_url", "saver_avif")


def _one_turn(browser, chapter_url: str, pages: list[dict]) -> dict:
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        _throttle(page)
        requests: list[tuple[str, int]] = []
        index_of = {page[field]: index for index, page in enumerate(pages) for field in IMAGE_FIELDS if page.get(field)}

        def seen(kind: str):
            def record(request) -> None:
                path = "/" + request.url.split("/", 3)[-1]
                if path in index_of:
                    requests.append((kind, index_of[path]))
            return record

        page.on("request", seen("start"))
        page.on("requestfinished", seen("end"))
        page.on("requestfailed", seen("end"))
        page.goto(chapter_url)
        # The app must have taken over to turn a page at all.
        page.wait_for_function("() => window.__reflex !== undefined && document.querySelector('link[rel=canonical]')", timeout=60000)
        page.wait_for_function(f"() => performance.now() >= {TURN_AT_MS}", timeout=60000)
        turned_at = page.evaluate("performance.now()")
        drawn_ms = float(page.evaluate(TURN_SCRIPT, 1))
        page.wait_for_timeout(200)
        return {"turn_to_drawn_ms": drawn_ms, "turned_at_ms": turned_at, "requests": list(requests)}
    finally:
        context.close()


def _concurrency(requests: list[tuple[str, int]]) -> int:
    busy = most = 0
    for kind, _ in requests:
        busy += 1 if kind == "start" else -1
        most = max(most, busy)
    return most


def measure(browser, chapter_url: str, pages: list[dict], samples: int = 5) -> tuple[list[dict], dict]:
    """(figures, details) of `samples` fresh openings of the chapter (`pages`: its manifest's)."""
    runs = [_one_turn(browser, chapter_url, pages) for _ in range(samples)]
    drawn = statistics.median(run["turn_to_drawn_ms"] for run in runs)
    most = max(_concurrency(run["requests"]) for run in runs)
    first_order = [index for kind, index in runs[0]["requests"] if kind == "start"]
    figures = [
        {"figure": "turn to drawn, page turned 3 s after opening, 150 ms / 1.6 Mbps (median)", "value": round(drawn, 1),
         "unit": "ms", "target": f"<= {TARGET_MS}", "pass": drawn <= TARGET_MS},
        {"figure": "page requests in flight at once, slow link (most)", "value": most, "target": "<= 3", "pass": most <= 3},
    ]
    details = {"turn_to_drawn_ms": [run["turn_to_drawn_ms"] for run in runs],
               "turned_at_ms": [run["turned_at_ms"] for run in runs], "request_order_first_run": first_order}
    return figures, details


if __name__ == "__main__":
    # `python -m benchmarks.reader_turn [PORT [WEB_DIR]]`: these figures alone (bench_reader runs them too).
    import json
    import sys

    from playwright.sync_api import sync_playwright

    from benchmarks._site import CHROME_ARGS, CHROMIUM, served_site
    from benchmarks.bench_reader import _manifests

    port = int(sys.argv[1]) if len(sys.argv) > 1 else 3294
    web_dir = sys.argv[2] if len(sys.argv) > 2 else f".web-bench-turn-{port}"
    with served_site(port, web_dir) as (url, data), sync_playwright() as playwright:
        (slug, number), pages = next((key, value) for key, value in _manifests(data).items() if value[0]["height"] < 2 * value[0]["width"])
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
        figures, details = measure(browser, f"{url}/{slug}-ch-{number}", pages)
        browser.close()
    print(json.dumps({"figures": figures, "details": details}, ensure_ascii=False, indent=2))
