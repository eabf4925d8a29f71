"""The project's own Node (tools/node_modules), running the pure browser
scripts of assets/js for tests that check them against tables of cases."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NODE = ROOT / "tools" / "node_modules" / ".bin" / "node"
JS = ROOT / "assets" / "js"

# A cookie and a localStorage for Node, so scripts run as they do in the browser.
STORAGE_SHIM = """
globalThis.document = { cookie: "" };
const store = new Map();
globalThis.localStorage = {
  getItem: (key) => (store.has(key) ? store.get(key) : null),
  setItem: (key, value) => store.set(key, String(value)),
  removeItem: (key) => store.delete(key),
};
"""


def run_module(module: Path, body: str) -> object:
    """Runs `body` (which must `return` a JSON value) with `module`'s exports as `m`."""
    if not NODE.exists():
        pytest.fail(f"no Node at {NODE}: run `make setup`")
    source = (
        f"{STORAGE_SHIM}\nimport * as m from {json.dumps(module.as_uri())};\n"
        f"const result = (() => {{ {body} }})();\nconsole.log(JSON.stringify(result));"
    )
    done = subprocess.run([str(NODE), "--input-type=module", "-e", source], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
