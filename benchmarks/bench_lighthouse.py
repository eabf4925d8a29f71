"""Lighthouse (mobile) for `/`, `/search?q=...` and a title page, against a blank Reflex app built the same way (issue 4).

The site is built and served as `make run` does (production build, one
port) with the demo library; the blank app is one static page built with the
same Reflex, bun and Node, and served the same way: the framework's floor.
Lighthouse runs Debian's Chromium headless with the e2e suite's
network-closing flags. PRODUCTION_HOST is the served host, so pages are
indexable as on the real site (no analytics id is set). Targets: SEO,
accessibility and best practices 100; performance at least the blank app's.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
PORT, BLANK_PORT = 3291, 3292
WEB_DIR = ".web-bench-browse"
CHROMIUM = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = {"largest-contentful-paint": "LCP ms", "cumulative-layout-shift": "CLS", "total-blocking-time": "TBT ms", "total-byte-weight": "bytes"}
BLANK_APP = '''import reflex as rx

def index():
    return rx.el.main(rx.el.h1("Blank"), rx.el.p("The framework floor."))

app = rx.App(html_lang="en")
app.add_page(index, route="/", title="Blank", description="A blank Reflex page.")
'''
SERVE = """import sys
from reflex.istate.manager import reset_disk_state_manager
from reflex.utils import exec as reflex_exec
from reflex_base import constants
from reflex_base.config import get_config
from reflex_base.environment import environment
environment.REFLEX_ENV_MODE.set(constants.Env.PROD)
environment.REFLEX_SKIP_COMPILE.set(True)
reset_disk_state_manager()
reflex_exec.run_backend_prod("127.0.0.1", int(sys.argv[1]), get_config().loglevel.subprocess_level(), mount_frontend_compiled_app=True)
"""


def _env(**extra: str) -> dict[str, str]:
    path = f"{ROOT / 'tools/node_modules/.bin'}:{ROOT / '.venv/bin'}:{os.environ['PATH']}"
    return {**os.environ, "PATH": path, "REFLEX_USE_SYSTEM_BUN": "1", "PYTHONDONTWRITEBYTECODE": "1", **extra}


def _wait(url: str, process: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(url + "/ping", timeout=2).status_code == 200:
                return
        time.sleep(0.5)
    raise RuntimeError(f"no answer from {url}")


@contextlib.contextmanager
def _serve(command: list[str], cwd: Path, env: dict[str, str], url: str) -> Iterator[str]:
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            try:
                _wait(url, process)
            except RuntimeError as error:
                log.seek(0)
                raise RuntimeError(f"{error}: {log.read()[-2000:].decode(errors='replace')}") from None
            yield url
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=15)


@contextlib.contextmanager
def served_demo() -> Iterator[str]:
    """The site with the e2e-sized demo library, built for PORT and served."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"no Chromium at {CHROMIUM}")
    with tempfile.TemporaryDirectory(prefix="bench-browse-") as temp:
        data = Path(temp)
        env = _env(PORT=str(PORT), DATA_DIR=str(data), REFLEX_DB_URL=f"sqlite:///{data / 'bench.db'}",
                   REFLEX_WEB_WORKDIR=WEB_DIR, PRODUCTION_HOST="localhost", SITE_ORIGIN=f"http://localhost:{PORT}")
        python = str(ROOT / ".venv/bin/python")
        subprocess.run([python, "-m", "manga_app.demo", str(data / "demo"), "--series", "8"], cwd=ROOT, env=env, check=True, capture_output=True)
        subprocess.run([python, "-m", "manga_app.catalogue", "import", str(data / "demo")], cwd=ROOT, env=env, check=True, capture_output=True)
        subprocess.run(["make", "--no-print-directory", "build", f"PORT={PORT}", f"WEB_DIR={WEB_DIR}"], cwd=ROOT, env=env, check=True, capture_output=True)
        with _serve([python, "-m", "manga_app.serve", "--port", str(PORT), "--host", "127.0.0.1"], ROOT, env, f"http://localhost:{PORT}") as url:
            yield url


@contextlib.contextmanager
def served_blank_app() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="bench-blank-") as temp:
        app_dir = Path(temp)
        (app_dir / "blank_app").mkdir()
        (app_dir / "blank_app/__init__.py").write_text("")
        (app_dir / "blank_app/blank_app.py").write_text(BLANK_APP)
        (app_dir / "rxconfig.py").write_text('import reflex as rx\nfrom reflex.plugins.sitemap import SitemapPlugin\nconfig = rx.Config(app_name="blank_app", show_built_with_reflex=False, telemetry_enabled=False, disable_plugins=[SitemapPlugin])\n')
        (app_dir / "serve.py").write_text(SERVE)
        env = _env(REFLEX_API_URL=f"http://localhost:{BLANK_PORT}")
        python = str(ROOT / ".venv/bin/python")
        subprocess.run([python, "-m", "reflex", "export", "--frontend-only", "--no-zip", "--loglevel", "warning"], cwd=app_dir, env=env, check=True, capture_output=True)
        with _serve([python, "serve.py", str(BLANK_PORT)], app_dir, env, f"http://localhost:{BLANK_PORT}") as url:
            yield url


def lighthouse(url: str, out: Path) -> dict:
    binary = ROOT / "tools/node_modules/.bin/lighthouse"
    subprocess.run(
        [str(binary), url, "--output=json", f"--output-path={out}", "--quiet", f"--chrome-flags={CHROME_FLAGS}",
         f"--only-categories={','.join(CATEGORIES)}", "--form-factor=mobile"],
        env=_env(CHROME_PATH=CHROMIUM), check=True, capture_output=True, timeout=300,
    )
    report = json.loads(out.read_text())
    scores = {name: round((report["categories"][name]["score"] or 0) * 100) for name in CATEGORIES}
    metrics = {label: report["audits"][audit].get("numericValue") for audit, label in METRICS.items()}
    failed = {name: [ref["id"] for ref in report["categories"][name]["auditRefs"]
                     if ref.get("weight") and (report["audits"][ref["id"]].get("score") or 0) < 1]
              for name in CATEGORIES if name != "performance"}
    # Which elements failed, so a failure can be acted on without rerunning.
    nodes = {audit: [item.get("node", {}).get("selector", "") for item in report["audits"][audit].get("details", {}).get("items", [])][:10]
             for audits in failed.values() for audit in audits}
    return {"url": url, "scores": scores, "metrics": metrics, "failed_audits": failed, "failed_nodes": nodes}


def keystroke_to_results(queries: tuple[str, ...] = ("ほしふる", "hoshifuru", "ヤオヤ", "こうてつ", "amaoto")) -> list[float]:
    """ms from the last keystroke (its input event) to the first result card showing, per query."""
    from playwright.sync_api import sync_playwright

    samples: list[float] = []
    with served_demo() as url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROME_FLAGS.split()[1:])
        for query in queries * 2:
            # A fresh visitor each time: no state left from the previous query.
            page = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844}).new_page()
            page.add_init_script("document.addEventListener('input', () => { window.__t0 = performance.now(); }, true)")
            page.goto(url + "/search")
            # Typing starts once the page's own on_load is done.
            page.wait_for_function("() => /件$/.test(document.querySelector('.result-count')?.textContent || '')")
            box = page.locator("#search-page-input")
            box.press_sequentially(query, delay=60)
            heading = f"「{query}」の検索結果"
            took = page.wait_for_function(
                "h => { const t = document.querySelector('main h1'); const card = document.querySelector('main .card-grid .card');"
                " return t && t.textContent === h && card ? performance.now() - window.__t0 : null; }",
                arg=heading, polling="raf", timeout=10_000,
            ).json_value()
            samples.append(float(took))
            page.context.close()
        browser.close()
    return samples


def run(results_dir: Path) -> dict:
    if not shutil.which("make") or not Path(CHROMIUM).exists():
        raise RuntimeError("needs make and Chromium")
    reports: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as temp:
        with served_blank_app() as url:
            reports["blank Reflex app /"] = lighthouse(url + "/", Path(temp) / "blank.json")
        with served_demo() as url:
            for name, path in (("/", "/"), ("/search?q=", "/search?q=%E3%81%BB%E3%81%97"), ("title page", "/manga/yaoya-no-yuusha")):
                reports[name] = lighthouse(url + path, Path(temp) / f"{len(reports)}.json")
    (results_dir / "lighthouse_reports.json").write_text(json.dumps(reports, ensure_ascii=False, indent=2) + "\n")
    floor = reports["blank Reflex app /"]["scores"]["performance"]
    figures = []
    for name, report in reports.items():
        for category, score in report["scores"].items():
            target = (f">= {floor} (blank)" if category == "performance" else "100") if not name.startswith("blank") else None
            passed = None if target is None else (score >= floor if category == "performance" else score == 100)
            figures.append({"figure": f"{name} {category}", "value": score, "target": target, "pass": passed})
        for label, value in report["metrics"].items():
            figures.append({"figure": f"{name} {label}", "value": round(value, 3) if value is not None else None})
    return {"figures": figures}


if __name__ == "__main__":
    print(json.dumps(run(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "benchmarks/results"), ensure_ascii=False, indent=2))
