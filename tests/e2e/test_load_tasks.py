"""The work of a page load, in tasks a phone can interleave with taps.

React commits the hydrated page in one task. Whatever joins that task makes
it longer: the longest task of the load is what a visitor feels as the page
ignoring a tap, and what Lighthouse counts as blocking time. The page's own
effects (connecting its socket, reading client storage, starting auth)
belong in later tasks. They joined
the commit whenever any component asked for a synchronous re-render as the
hydration committed: a hook whose browser value differs from the server's
read through useSyncExternalStore, or a state set in a layout effect (antd's
button drew a hidden loading icon whose animation did that).

React tells the browser's developer tools about every commit through
`__REACT_DEVTOOLS_GLOBAL_HOOK__`, its public hook for them; the test
installs a minimal one to see the first commit, and marks the task it ran
in until a zero-delay timer (the next task) fires.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.e2e.conftest import wait_for_hydration

PHONE = {"width": 390, "height": 844}

WATCH_THE_COMMIT = """
(() => {
  const seen = (window.__loadTasks = { commits: 0, effectsInCommitTask: null });
  let inCommitTask = false;
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    supportsFiber: true,
    renderers: new Map(),
    inject() { return 1; },
    checkDCE() {},
    onScheduleFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    onCommitFiberRoot() {
      if (seen.commits++ === 0) {
        inCommitTask = true;
        setTimeout(() => { inCommitTask = false; }, 0);
      }
    },
  };
  // The root's own effect (Reflex's, in .web/app/root.jsx) is one of the
  // page's effects: it publishes window.__reflex when it runs.
  let reflex;
  Object.defineProperty(window, "__reflex", {
    configurable: true,
    get() { return reflex; },
    set(value) {
      if (seen.effectsInCommitTask === null) seen.effectsInCommitTask = inCommitTask;
      reflex = value;
    },
  });
})();
"""


def _first_title_path(base_url: str) -> str:
    import httpx

    return "/manga/" + httpx.get(base_url + "/mangas_1.json", timeout=10).json()["list"][0]["slug"]


@pytest.mark.parametrize("kind", ["home", "title", "search"])
def test_the_pages_effects_run_after_the_task_that_commits_the_hydration(browser: Browser, base_url: str, kind: str) -> None:
    path = {"home": "/", "title": _first_title_path(base_url), "search": "/search?q=%E3%81%AE"}[kind]
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.add_init_script(WATCH_THE_COMMIT)
    page.goto(base_url + path)
    wait_for_hydration(page)
    page.wait_for_function("() => window.__loadTasks.effectsInCommitTask !== null")
    seen = page.evaluate("window.__loadTasks")
    context.close()
    assert seen["commits"] >= 1, "React reported no commit: the page did not hydrate"
    assert seen["effectsInCommitTask"] is False, "the page's effects ran in the task that committed the hydration"
