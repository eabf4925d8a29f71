"""Reader LCP against the static floor on a throttled phone (issue 37): at
least 20 pairs, a floor load then a reader load, each in a fresh Chromium
context (cold cache, 390x844) throttled through the DevTools protocol.

The profile: Lighthouse's mobile slow 4G (constants.js `mobileSlow4G`:
150 ms round trip, 1,638.4 kbit/s down, 675 kbit/s up, as the issue names
them) and the CPU four times slower (`cpuSlowdownMultiplier`). Lighthouse's
own DevTools mode would use 562.5 ms and 1,474.56 kbit/s; the longer
latency adds the same fixed time to both pages and flatters the ratio, so
the shorter one is used.

The figure is the median of the paired ratios (reader / the floor load just
before it): what a slower or busier stretch of the shared machine does to
both loads of a pair cancels out. The spread of those ratios is reported
(p10, p90, min, max), and each load's details (when the image's request
started and ended, the HTML's size, which file was shown) go to the
details file, to see where the reader loses time.
"""

from __future__ import annotations

import statistics

PAIRS = 24
TARGET = 1.1
LATENCY_MS = 150
DOWN_BYTES_PER_SECOND = 1638.4 * 1024 / 8
UP_BYTES_PER_SECOND = 675 * 1024 / 8
CPU_RATE = 4

# The largest image painted, as LCP reports it, read once the page has
# loaded (buffered entries) rather than observed from an init script: an
# init script runs before the page's own first script, so it would add its
# cost to the reader, whose head runs a script, and not to the floor, which
# has none. Entries are recognised by their url: the head's first paint may
# be replaced once the reader draws its own page, and a removed element
# reads as null. With the LCP, what the page's timeline says about the
# image it painted and the document.
LCP_SCRIPT = """() => new Promise((resolve, reject) => {
  let last = null;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.url) last = entry;
  }).observe({type: 'largest-contentful-paint', buffered: true});
  const started = performance.now();
  const done = () => {
    const image = performance.getEntriesByName(last.url, 'resource')[0] || {};
    const nav = performance.getEntriesByType('navigation')[0] || {};
    const fcp = performance.getEntriesByName('first-contentful-paint')[0];
    const pick = (entry, names) => Object.fromEntries(names.map((name) => [name, Math.round(entry[name] || 0)]));
    resolve({
      lcp: last.startTime, url: last.url.replace(location.origin, ''),
      load_time: last.loadTime, render_time: last.renderTime,
      fcp: fcp ? fcp.startTime : null,
      image: {...pick(image, ['fetchStart', 'requestStart', 'responseStart', 'responseEnd', 'encodedBodySize']),
              render_blocking: image.renderBlockingStatus},
      document: pick(nav, ['responseStart', 'responseEnd', 'domInteractive', 'encodedBodySize', 'decodedBodySize']),
      blocking: performance.getEntriesByType('resource').filter((e) => e.renderBlockingStatus === 'blocking')
        .map((e) => e.name.replace(location.origin, '')),
    });
  };
  const check = () => {
    if (last !== null) setTimeout(done, 300);  // a later, larger candidate would replace it
    else if (performance.now() - started > 60000) reject(new Error('no image painted'));
    else setTimeout(check, 50);
  };
  check();
})"""


def throttle(page) -> None:
    """The phone: a slow 4G link and a CPU four times slower, from before
    the page is requested."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", {
        "offline": False, "latency": LATENCY_MS,
        "downloadThroughput": DOWN_BYTES_PER_SECOND, "uploadThroughput": UP_BYTES_PER_SECOND,
    })
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_RATE})


def load(browser, url: str) -> dict:
    """One cold load on the phone profile: its LCP and timeline details. The
    context is closed once the LCP is known: what the page does next (the
    reader's app loading) ends with it rather than spilling into the next
    load."""
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844},
                                  device_scale_factor=3, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        throttle(page)
        page.goto(url, wait_until="commit")
        return page.evaluate(LCP_SCRIPT)
    finally:
        context.close()


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = int(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def alternated(load_one, browser, floor_url: str, reader_url: str, pairs: int) -> tuple[list, list]:
    """`load_one(browser, url)` once for each page (warming the server), then
    `pairs` times the floor and then the reader: the floor's and the reader's results."""
    load_one(browser, reader_url)
    load_one(browser, floor_url)
    floor, reader = [], []
    for _ in range(pairs):
        floor.append(load_one(browser, floor_url))
        reader.append(load_one(browser, reader_url))
    return floor, reader


def measure(browser, floor_url: str, reader_url: str, pairs: int = PAIRS) -> tuple[list[dict], dict]:
    """`pairs` pairs (floor, then reader) after one warm-up load of each:
    the figures and the loads."""
    floor, reader = alternated(load, browser, floor_url, reader_url, pairs)
    ratios = [r["lcp"] / f["lcp"] for r, f in zip(reader, floor, strict=True)]
    median = statistics.median(ratios)
    reader_ms = statistics.median(r["lcp"] for r in reader)
    floor_ms = statistics.median(f["lcp"] for f in floor)
    figures = [
        {"figure": "phone profile: reader first page LCP (median)", "value": round(reader_ms, 1), "unit": "ms"},
        {"figure": "phone profile: static page LCP, same image (median)", "value": round(floor_ms, 1), "unit": "ms"},
        {"figure": f"phone profile: reader LCP / static floor, median of {pairs} paired loads", "value": round(median, 3),
         "target": f"<= {TARGET}", "pass": median <= TARGET},
        {"figure": "phone profile: paired ratio p10 / p90", "value": f"{_quantile(ratios, 0.1):.3f} / {_quantile(ratios, 0.9):.3f}"},
        {"figure": "phone profile: paired ratio min / max", "value": f"{min(ratios):.3f} / {max(ratios):.3f}"},
        {"figure": "phone profile: ratio of medians", "value": round(reader_ms / floor_ms, 3)},
    ]
    return figures, {"floor": floor, "reader": reader, "paired_ratios": [round(r, 4) for r in ratios]}
