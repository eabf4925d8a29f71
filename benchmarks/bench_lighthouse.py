"""Lighthouse (mobile) for `/`, `/search?q=...`, a title page, `/ranking`, `/calendar` and an author page, against a blank Reflex app built the same way (issue 4).

The site is built and served as `make run` does (production build, one
port) with the demo library; the blank app is one static page built with the
same Reflex, bun and Node, and served the same way: the framework's floor.
Lighthouse runs Debian's Chromium headless with the e2e suite's
network-closing flags. PRODUCTION_HOST is the served host, so pages are
indexable as on the real site (no analytics id is set). Targets: SEO,
accessibility and best practices 100; performance >= 97 (issue 15), with
the blank app's score beside it, for every page; and, as figures of their
own, `/ranking`, `/calendar` and an author page at least what `/` gets in
the same run (issue 32's bar).
Each page runs RUNS times; the median run is reported.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx

from benchmarks._site import CHROMIUM, ROOT, require_chromium, serve, served_site, tool_env
from manga_app.core import routes

# Overridable so several checkouts on one machine can run it side by side.
PORT = int(os.environ.get("BENCH_LIGHTHOUSE_PORT", "3291"))
BLANK_PORT = int(os.environ.get("BENCH_LIGHTHOUSE_BLANK_PORT", "3292"))
WEB_DIR = ".web-bench-browse"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
# Runs per page; the run with the median performance score is reported, as
# Lighthouse's own guidance on variability advises (docs/variability.md: the
# median of 5 runs is about twice as stable as one). One run moved by 2-3
# points on this shared machine, mostly in TBT; with 3 runs, /, /ranking and
# /calendar swapped places by a point from one run of the benchmark to the next
# (99/98/98, then 99/99/100), which issue 32's "at least what / gets" cannot
# tell from a difference.
RUNS = 5
PERFORMANCE_TARGET = 97
HEAVIEST = 12  # downloads listed per run in lighthouse_reports.json
METRICS = {"largest-contentful-paint": "LCP ms", "cumulative-layout-shift": "CLS", "total-blocking-time": "TBT ms", "total-byte-weight": "bytes"}
# Pages whose performance must be at least what / gets in the same run (issue 32).
AT_LEAST_HOME = ("/ranking", "/calendar", "author page")
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


@contextlib.contextmanager
def served_demo() -> Iterator[str]:
    """The site as `make run` serves it (the whole demo library, its view
    counts and history: a ranking of 30 rows, the home's 今日のランキング),
    as indexable as on the real site."""
    require_chromium("Lighthouse")
    with served_site(PORT, WEB_DIR, series=None, PRODUCTION_HOST="localhost", UNSAFE_ALLOW_AUTH_EMULATOR="1") as (url, _data):
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
        env = tool_env(REFLEX_API_URL=f"http://localhost:{BLANK_PORT}")
        python = str(ROOT / ".venv/bin/python")
        subprocess.run([python, "-m", "reflex", "export", "--frontend-only", "--no-zip", "--loglevel", "warning"], cwd=app_dir, env=env, check=True, capture_output=True)
        with serve([python, "serve.py", str(BLANK_PORT)], app_dir, env, f"http://localhost:{BLANK_PORT}") as url:
            yield url


def median_run(url: str, out: Path) -> dict:
    """The run with the median performance score of RUNS, with every run's score."""
    runs = sorted((lighthouse(url, out) for _ in range(RUNS)), key=lambda report: report["scores"]["performance"])
    chosen = runs[len(runs) // 2]
    return {**chosen, "performance_runs": [report["scores"]["performance"] for report in runs]}


def _lighthouse_report(url: str, out: Path) -> dict:
    """One Lighthouse run's JSON report. A run that crashed (Lighthouse exits 1 when Chromium's
    protocol drops, seen once in ~40 runs on a busy machine, for /calendar, which passed 3 of 3 by
    hand right after) is run again, once; its error is kept, and a second crash stops the benchmark
    with Lighthouse's own message."""
    binary = ROOT / "tools/testing/node_modules/.bin/lighthouse"
    command = [str(binary), url, "--output=json", f"--output-path={out}", "--quiet", f"--chrome-flags={CHROME_FLAGS}",
               f"--only-categories={','.join(CATEGORIES)}", "--form-factor=mobile"]
    errors = []
    for _attempt in range(2):
        done = subprocess.run(command, env=tool_env(CHROME_PATH=CHROMIUM), capture_output=True, text=True, timeout=300)
        if done.returncode == 0:
            report = json.loads(out.read_text())
            report["retried_after"] = errors
            return report
        errors.append(f"exit {done.returncode}: {(done.stderr or done.stdout).strip()[-600:]}")
    raise RuntimeError(f"Lighthouse failed twice on {url}: {' | '.join(errors)}")


def lighthouse(url: str, out: Path) -> dict:
    report = _lighthouse_report(url, out)
    scores = {name: round((report["categories"][name]["score"] or 0) * 100) for name in CATEGORIES}
    metrics = {label: report["audits"][audit].get("numericValue") for audit, label in METRICS.items()}
    failed = {name: [ref["id"] for ref in report["categories"][name]["auditRefs"]
                     if ref.get("weight") and (report["audits"][ref["id"]].get("score") or 0) < 1]
              for name in CATEGORIES if name != "performance"}
    # Which elements failed, so a failure can be acted on without rerunning.
    nodes = {audit: [item.get("node", {}).get("selector", "") for item in report["audits"][audit].get("details", {}).get("items", [])][:10]
             for audits in failed.values() for audit in audits}
    # The heaviest downloads, so a page that grew can be told apart from a slower machine.
    requests = report["audits"].get("network-requests", {}).get("details", {}).get("items", [])
    heaviest = [{"url": item.get("url", "")[-90:], "bytes": item.get("transferSize") or 0}
                for item in sorted(requests, key=lambda item: -(item.get("transferSize") or 0))[:HEAVIEST]]
    return {"url": url, "scores": scores, "metrics": metrics, "failed_audits": failed, "failed_nodes": nodes,
            "heaviest": heaviest, "retried_after": report["retried_after"]}


def run(results_dir: Path) -> dict:
    if not shutil.which("make") or not Path(CHROMIUM).exists():
        raise RuntimeError("needs make and Chromium")
    reports: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as temp:
        with served_blank_app() as url:
            reports["blank Reflex app /"] = median_run(url + "/", Path(temp) / "blank.json")
        with served_demo() as url:
            author = httpx.get(f"{url}/mangas_1.json", timeout=60).json()["list"][0]["authors"][0]
            pages = (("/", "/"), ("/search?q=", "/search?q=%E3%81%BB%E3%81%97"), ("title page", "/manga/yaoya-no-yuusha"),
                     ("/ranking", "/ranking"), ("/calendar", "/calendar"), ("author page", routes.author_url(author)))
            for name, path in pages:
                reports[name] = median_run(url + path, Path(temp) / f"{len(reports)}.json")
    (results_dir / "lighthouse_reports.json").write_text(json.dumps(reports, ensure_ascii=False, indent=2) + "\n")
    floor = reports["blank Reflex app /"]["scores"]["performance"]
    home = reports["/"]["scores"]["performance"]
    figures = []
    for name, report in reports.items():
        for category, score in report["scores"].items():
            # Issue 15's target for every page; the blank app's score is the framework's floor, for reference.
            shown = f">= {PERFORMANCE_TARGET} (blank app {floor})"
            target = (shown if category == "performance" else "100") if not name.startswith("blank") else None
            passed = None if target is None else score >= (PERFORMANCE_TARGET if category == "performance" else 100)
            figures.append({"figure": f"{name} {category}", "value": score, "target": target, "pass": passed})
        if name in AT_LEAST_HOME:
            # Issue 32's bar for its pages: at least what / gets in this run (a figure of its own).
            score = report["scores"]["performance"]
            figures.append({"figure": f"{name} performance against / in this run", "value": score,
                            "target": f">= {home} (/)", "pass": score >= home})
        for label, value in report["metrics"].items():
            figures.append({"figure": f"{name} {label}", "value": round(value, 3) if value is not None else None})
    return {"figures": figures}


if __name__ == "__main__":
    print(json.dumps(run(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "benchmarks/results"), ensure_ascii=False, indent=2))
