"""End-to-end fixtures: the production build served the way `make run` serves
it, driven by Debian's Chromium headless shell through Playwright.

Each test process builds the app once for its port (make skips the build
when nothing changed) and one server process serves all of its tests."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

from manga_app.accounts import emulator
from manga_app.core.browser import EVENT_ANSWER_REF, EVENT_NUMBER_FIELD

ROOT = Path(__file__).resolve().parents[2]
# `make test` runs this suite in two processes (pytest-xdist workers gw0 and
# gw1, each given whole modules): each has its own server, build and data on
# its own port, so a module sees the site as it would in a run of its own.
# The modules that build a site of their own (test_scale_out, test_offline_cdn)
# place it from BASE_PORT, the same whichever process runs them.
BASE_PORT = int(os.environ.get("E2E_PORT", "3123"))
WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw"))
PORT = BASE_PORT + 20 * WORKER
WEB_DIR = os.environ.get("E2E_WEB_DIR", ".web") + (f"-gw{WORKER}" if WORKER else "")
# How long an expectation waits for what the visitor would see. Playwright's
# 5 s is short on CI, where two workers, a scan's import and Chromium share
# two cores. An expectation that holds returns at once: this only gives a
# slow round trip its chance, and a failure says so 10 s later.
expect.set_options(timeout=15_000)
# A small demo library, enough for every page kind (the full one is for make run).
DEMO_SERIES = int(os.environ.get("E2E_DEMO_SERIES", "8"))
# A second name for the loopback server: the "production host" of the tests.
PRODUCTION_HOST = "manga.test"
GA_ID = "G-E2ETEST01"
SITE_ORIGIN = "https://manga.example"
# The operator of the tests' server (ADMIN_EMAILS): new each session, since an
# emulator left running keeps the accounts of earlier runs.
OPERATOR_EMAIL = f"operator-{uuid.uuid4().hex[:8]}@example.com"
# Debian's headless shell (Chromium's old headless mode, what Playwright itself
# runs headless): the same engine without the browser's UI, about a third
# less CPU for the same pages than /usr/bin/chromium (a walk of seven pages in
# six fresh contexts: 22 against 35 CPU-seconds), on a suite that keeps two
# cores busy. The benchmarks keep the full browser (Lighthouse).
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # The machine's network is closed and tests must not reach out: every
    # name but the loopback server's is unknown to the browser. A host rule,
    # not a route answering each request in Python: a route costs a round trip
    # through Playwright per request and turns the HTTP cache off (a walk of
    # five pages and a chapter took a third more CPU with one).
    f"--host-resolver-rules=MAP {PRODUCTION_HOST} 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1",
]


# What a process takes as one piece of work: a module, but the modules serving
# the scaled site (its build, Redis database 7) go together. The longest
# pieces go first, so both processes end near the same time (from
# `--durations`: the rest take under 90 s each).
_GROUPS = {"test_scale_out": "scaled-site", "test_avif_later": "scaled-site", "test_outage": "scaled-site"}
_LONGEST_FIRST = ("scaled-site", "test_hydration", "test_validators", "test_reader", "test_account_data")


def _group(nodeid: str) -> str:
    module = nodeid.split("::", 1)[0].rsplit("/", 1)[-1].removesuffix(".py")
    return _GROUPS.get(module, module)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {group: index for index, group in enumerate(_LONGEST_FIRST)}
    for item in items:
        if "tests/e2e" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)
    # Stable: file order within a group and among the rest.
    items.sort(key=lambda item: rank.get(_group(item.nodeid), len(rank)) if "tests/e2e" in str(item.fspath) else len(rank))


def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """`--dist loadscope` hands out the groups above. Not xdist_group marks and
    `--dist loadgroup`: pytest-xdist 3.8 groups by rewriting an item's
    `_nodeid`, which pytest 9.2 no longer reads, so every test went its own way."""
    if config.getvalue("dist") != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class ModuleGroups(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _group(nodeid)

    return ModuleGroups(config, log)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call):
    """A failed e2e test's report carries the last lines the servers running
    then logged, so a failure on CI says what the server saw."""
    outcome = yield
    report = outcome.get_result()
    if report.when != "call" or not report.failed:
        return
    for url, server in list(RUNNING.items()):
        try:
            with open(server.log_path, "rb") as log:
                log.seek(max(0, log.seek(0, os.SEEK_END) - 400_000))
                lines = log.read().decode("utf-8", "replace").splitlines()
        except OSError:
            continue
        if lines:
            report.sections.append((f"server log {url} (last 40 lines)", "\n".join(line[:300] for line in lines[-40:])))


_EMULATOR = contextlib.ExitStack()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """One Firebase Auth emulator for the whole run (the machine's own when
    one answers), started by the process that runs or hands out the tests
    (not a worker: two would race for its port) and stopped at its end."""
    if not hasattr(session.config, "workerinput"):
        log = Path(session.config._tmp_path_factory.getbasetemp()) / "emulator.log"
        _EMULATOR.enter_context(emulator.running_emulator(log_path=log))


def pytest_sessionfinish(session: pytest.Session) -> None:
    _EMULATOR.close()


@pytest.fixture(scope="session", autouse=True)
def auth_emulator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The run's emulator. Every server the tests start finds it running and
    so never owns one: a server a test kills (the scan resumed after a
    restart) used to leave the emulator it had started running after the
    suite. Started here only when this file was not loaded at the session's
    start (`pytest tests`)."""
    with emulator.running_emulator(log_path=tmp_path_factory.mktemp("emulator") / "emulator.log") as host:
        yield host


@pytest.fixture(scope="session")
def server_env(tmp_path_factory: pytest.TempPathFactory, auth_emulator: str) -> dict[str, str]:
    """The server's environment, with a demo catalogue imported through the real CLI."""
    data = tmp_path_factory.mktemp("e2e-data")
    env = {
        **os.environ,
        "PORT": str(PORT),
        "PRODUCTION_HOST": PRODUCTION_HOST,
        "GA_MEASUREMENT_ID": GA_ID,
        "SITE_ORIGIN": SITE_ORIGIN,
        # The tests play the production host on this machine with the Auth
        # emulator, which the site otherwise refuses for a public configuration.
        "UNSAFE_ALLOW_AUTH_EMULATOR": "1",
        "DATA_DIR": str(data),
        "REFLEX_DB_URL": f"sqlite:///{data / 'e2e.db'}",
        "REFLEX_WEB_WORKDIR": WEB_DIR,
        # Tests import while the server runs and look for the result quickly.
        "CATALOGUE_REFRESH_SECONDS": "1",
        # Every e2e visitor comes from 127.0.0.1: the whole suite opens one
        # chapter in more fresh browsers than the per-address cap admits.
        "VISITORS_PER_ADDRESS": "100000",
        "ADMIN_EMAILS": f"someone-else@example.com, {OPERATOR_EMAIL}",
    }
    python = str(ROOT / ".venv/bin/python")
    demo = data / "demo"
    subprocess.run([python, "-m", "manga_app.demo", str(demo), "--series", str(DEMO_SERIES)], cwd=ROOT, env=env, check=True)
    subprocess.run([python, "-m", "manga_app.catalogue", "import", str(demo)], cwd=ROOT, env=env, check=True)
    subprocess.run([python, "-m", "manga_app.demo.view_counts"], cwd=ROOT, env=env, check=True)
    return env


@pytest.fixture(scope="session")
def base_url(server_env: dict[str, str]) -> Iterator[str]:
    with served_app(PORT, WEB_DIR, server_env) as url:
        yield url


class ServedApp:
    """`python -m manga_app.serve` on a port, which a test may restart (after a crash, say)."""

    def __init__(self, port: int, web_dir: str, env: dict[str, str]) -> None:
        self.url, self.port = f"http://localhost:{port}", port
        self.env = {**env, "PORT": str(port), "REFLEX_WEB_WORKDIR": web_dir}
        self.log_path = Path(env["DATA_DIR"]) / f"server-{port}.log"
        self.log_path.write_text("")

    def start(self) -> None:
        self.log = open(self.log_path, "a")
        self.process = subprocess.Popen(
            [str(ROOT / ".venv/bin/python"), "-m", "manga_app.serve", "--port", str(self.port), "--host", "127.0.0.1"],
            cwd=ROOT,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        _wait_until_up(self.url, self.process)
        self._wait_for_rankings()

    def _wait_for_rankings(self) -> None:
        """Back as the tests find it: with its ranking board computed. A start computes the first
        one in a process of its own; until then /ranking says 集計中, and a ranking test run right
        after a module that restarted the server waited for it in vain."""
        url = f"{self.url}/ranking"
        deadline = time.monotonic() + float(os.environ.get("E2E_START_TIMEOUT", "90"))
        while "集計中" in httpx.get(url, timeout=10).text:
            if time.monotonic() > deadline:
                raise RuntimeError(f"{url} still says 集計中 long after the start")
            time.sleep(0.3)

    def stop(self, how: signal.Signals = signal.SIGTERM) -> None:
        """The server and everything it started (its group): SIGTERM as a deploy stops it, SIGKILL as a crash."""
        os.killpg(self.process.pid, how)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.log.close()

    def restart(self, how: signal.Signals) -> None:
        self.stop(how)
        self.start()

# The servers running now, by URL.
RUNNING: dict[str, ServedApp] = {}


@contextlib.contextmanager
def served_app(port: int, web_dir: str, env: dict[str, str]) -> Iterator[str]:
    """The production build for `port` (built when sources changed), served
    by `python -m manga_app.serve` as `make run` does; its log in DATA_DIR."""
    url = f"http://localhost:{port}"
    if _answers(url):
        raise RuntimeError(f"something already serves {url}: stop it, or set E2E_PORT")
    subprocess.run(["make", "--no-print-directory", "build", f"PORT={port}", f"WEB_DIR={web_dir}"], cwd=ROOT, check=True)
    server = RUNNING[url] = ServedApp(port, web_dir, env)
    try:
        server.start()
        yield url
    finally:
        RUNNING.pop(url)
        if getattr(server, "process", None) is not None and server.process.poll() is None:
            server.stop()


def _answers(url: str) -> bool:
    try:
        return httpx.get(f"{url}/ping", timeout=2).status_code == 200
    except httpx.HTTPError:
        return False


def _wait_until_up(url: str, process: subprocess.Popen, timeout: float = float(os.environ.get("E2E_START_TIMEOUT", "90"))) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}; see its server log")
        if _answers(url):
            return
        time.sleep(0.3)
    raise RuntimeError(f"the server did not answer on {url} within {timeout}s")


@pytest.fixture(scope="session")
def production_url(base_url: str) -> str:
    return base_url.replace("localhost", PRODUCTION_HOST)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


# Every page of every test reports what the site's Content-Security-Policy
# blocked: a page that breaks its own policy fails the test that opened it.
_REPORT_CSP = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.__reportCspViolation(`${event.violatedDirective} ${event.blockedURI} ${event.sample || ""} on ${location.pathname} from ${event.sourceFile || "?"}:${event.lineNumber}:${event.columnNumber}`);
});
"""


@contextlib.contextmanager
def guarded_context(browser: Browser, **options) -> Iterator[BrowserContext]:
    """A browser context (390x844 unless `options` say otherwise) that fails
    on any CSP violation."""
    context = browser.new_context(locale="ja-JP", **{"viewport": {"width": 390, "height": 844}, **options})
    violations: list[str] = []
    context.expose_binding("__reportCspViolation", lambda _source, text: violations.append(text))
    context.add_init_script(_REPORT_CSP)
    try:
        yield context
    finally:
        context.close()
    assert violations == [], f"Content-Security-Policy violations: {violations}"


# A phone (touch, 390x844) and a desktop (1366x900), each a fresh guarded context.
TOUCH = {"has_touch": True, "is_mobile": True, "viewport": {"width": 390, "height": 844}}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    with guarded_context(browser, **TOUCH) as context:
        yield context.new_page()


@pytest.fixture
def desktop(browser: Browser) -> Iterator[Page]:
    with guarded_context(browser, **DESKTOP) as context:
        yield context.new_page()


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    with guarded_context(browser) as context:
        yield context


@pytest.fixture
def page(context: BrowserContext) -> Page:
    return context.new_page()


# Marks elements of the first HTML as soon as the parser has them, before any
# script of the app runs; a node React replaced would lose the mark.
MARK_FIRST_HTML = """
document.addEventListener("DOMContentLoaded", () => {
  window.__firstHtml = [...document.querySelectorAll(%s)];
  window.__firstHtml.forEach((element) => { element.__fromFirstHtml = true; });
});
"""


def wait_for_hydration(page: Page) -> None:
    """The app has started: its modules ran and React has taken the page
    over (window.__reflex is set by an effect of its root). Not that the
    page's on_load has run: the canonical link is in the first HTML, and
    the app may not even be connected yet."""
    page.wait_for_function(
        "() => window.__reflex !== undefined && document.querySelector('link[rel=canonical]') !== null"
    )


class Answers:
    """The events a tab sent and the server's answers to them, read off its
    socket's frames (assets/js/delivery.js numbers each event; the server
    answers the number once its handler has finished). Watch before `goto`."""

    _SENT = re.compile(rf'"{EVENT_NUMBER_FIELD}":(\d+)')
    _ANSWER = re.compile(rf'"ref":"ref_{EVENT_ANSWER_REF}","value":(\d+)')

    def __init__(self, page: Page) -> None:
        self.sent: set[int] = set()
        self.answered: set[int] = set()
        page.on("websocket", self._watch)

    def _watch(self, socket) -> None:
        socket.on("framesent", lambda payload: self._note(payload, self._SENT, self.sent))
        socket.on("framereceived", lambda payload: self._note(payload, self._ANSWER, self.answered))

    @staticmethod
    def _note(payload: str | bytes, pattern: re.Pattern, into: set[int]) -> None:
        if isinstance(payload, str):
            into.update(int(number) for number in pattern.findall(payload))

    def wait_all(self, page: Page, *, at_least: int = 1, timeout: float = 20) -> None:
        """Until at least `at_least` events were sent and every one was answered."""
        deadline = time.monotonic() + timeout
        while len(self.sent) < at_least or not self.sent <= self.answered:
            assert time.monotonic() < deadline, f"events not answered: sent {sorted(self.sent)}, answered {sorted(self.answered)}"
            page.wait_for_timeout(50)
