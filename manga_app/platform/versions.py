"""The start-up check: the wing is written against exact framework versions.

Every module of the wing reaches into the internals of one exact version of
Reflex, engine.io, socket.io, uvicorn (with the websockets and httptools it
drives), Starlette and React Router's build; a private method renamed in a
patch release would break the site quietly (a hook never called, a lock
never given back). So the app refuses to start unless the installed
versions are the ones requirements.lock pins, and the React Router version
Reflex will build with (and, once built, the one in the build's
node_modules) is the one reflex.lock/package.json pins.

`manga_app.py` (every worker, `reflex export`) and `serve.py` run `check()`.
To upgrade: bump the pins, run tests/unit/platform_wing/, and fix or delete
what fails, in the wing only (docs/architecture.md, "The platform wing").

Overrides: nothing.
Why: see above.
Waits for: nothing; it goes last, with the wing.
"""

from __future__ import annotations

import json
import re
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON_LOCK = ROOT / "requirements.lock"
FRONTEND_LOCK = ROOT / "reflex.lock" / "package.json"
# The libraries whose internals the wing touches (distribution names).
PYTHON_LIBRARIES = (
    "reflex", "reflex-base", "python-engineio", "python-socketio", "uvicorn", "websockets", "httptools", "starlette",
)
# React Router: its server build is driven by renderer.mjs and its output rewritten by built_page.py.
FRONTEND_LIBRARIES = ("react-router", "@react-router/node", "@react-router/dev")
WING = "manga_app/platform/"


class FrameworkVersionError(RuntimeError):
    """An installed framework is not the version the platform wing is written for."""


def _key(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned_python(lock_text: str) -> dict[str, str]:
    """`name==version` lines of a pip lock file, by normalized name."""
    pins = {}
    for line in lock_text.splitlines():
        found = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([^\s;#\\]+)", line)
        if found:
            pins[_key(found[1])] = found[2]
    return pins


def pinned_frontend(package_json: str) -> dict[str, str]:
    document = json.loads(package_json)
    return {**document.get("dependencies", {}), **document.get("devDependencies", {})}


def mismatches(pinned: dict[str, str], installed: dict[str, str | None], names: tuple[str, ...], where: str) -> list[str]:
    """One line per library whose installed version is not its pin."""
    found = []
    for name in names:
        want, have = pinned.get(_key(name), pinned.get(name)), installed.get(name)
        if want is None:
            found.append(f"{name} is not pinned in {where}")
        elif have != want:
            found.append(f"{name} {have or 'is not installed'} (pinned: {want} in {where})")
    return found


def installed_python() -> dict[str, str | None]:
    def version(name: str) -> str | None:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            return None

    return {name: version(name) for name in PYTHON_LIBRARIES}


def requested_frontend() -> dict[str, str | None]:
    """The versions Reflex writes into the build's package.json (REACT_ROUTER_VERSION can change them)."""
    from reflex_base.constants.installer import PackageJson

    wanted = {**PackageJson.DEPENDENCIES, **PackageJson.DEV_DEPENDENCIES}
    return {name: wanted.get(name) for name in FRONTEND_LIBRARIES}


def built_frontend(web_dir: Path) -> dict[str, str | None] | None:
    """The versions in a build's node_modules, or None before its first build."""
    modules = web_dir / "node_modules"
    if not modules.is_dir():
        return None
    found: dict[str, str | None] = {}
    for name in FRONTEND_LIBRARIES:
        manifest = modules / name / "package.json"
        found[name] = json.loads(manifest.read_text(encoding="utf-8")).get("version") if manifest.is_file() else None
    return found


def problems(web_dir: Path | None = None) -> list[str]:
    python_pins = pinned_python(PYTHON_LOCK.read_text(encoding="utf-8"))
    frontend_pins = pinned_frontend(FRONTEND_LOCK.read_text(encoding="utf-8"))
    found = mismatches(python_pins, installed_python(), PYTHON_LIBRARIES, PYTHON_LOCK.name)
    found += mismatches(frontend_pins, requested_frontend(), FRONTEND_LIBRARIES, "reflex.lock/package.json")
    built = built_frontend(web_dir) if web_dir is not None else None
    if built is not None:
        found += [f"{line} in the build at {web_dir}" for line in
                  mismatches(frontend_pins, built, FRONTEND_LIBRARIES, "reflex.lock/package.json")]
    return found


def check(web_dir: Path | None = None) -> None:
    """Refuse to run on framework versions the wing was not written for."""
    found = problems(web_dir)
    if found:
        raise FrameworkVersionError(
            f"The platform wing ({WING}) changes framework internals of the pinned versions only, and these differ:\n  "
            + "\n  ".join(found)
            + "\nInstall the pinned versions (`make setup`), or upgrade the wing: bump the pins, run "
            "tests/unit/platform_wing/ and fix what fails (docs/architecture.md, \"The platform wing\")."
        )
