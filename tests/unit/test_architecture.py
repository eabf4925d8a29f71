"""The house rules, checked on the source (parsed with `ast`, never imported):
imports between parts, where things are placed, and what their names say.

Each rule is a function of a tree (relative path -> source text) returning its
violations, so every rule is shown to fail on a small tree that breaks it
before it is trusted to pass on the real one.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
Tree = dict[str, str]

MAX_LINES = 300
# The app's wiring: the only modules at the top of the package.
WIRING = {"manga_app/__init__.py", "manga_app/__main__.py", "manga_app/manga_app.py", "manga_app/serve.py"}
# Pure modules: plain Python, unit-tested without a server or a database.
PURE = (
    "manga_app/core/*.py",
    "manga_app/search/*.py",
    "manga_app/opds/*.py",
    "manga_app/feeds/atom.py",
    "manga_app/heads/seo.py",
    "manga_app/heads/build.py",
    "manga_app/reader/rules.py",
    "manga_app/accounts/reading.py",
    "manga_app/reader/logic.py",
    "manga_app/pages/*/logic.py",
    "manga_app/ui/navigation.py",
    "manga_app/cards/records.py",
    "manga_app/ui/theme.py",
    "manga_app/read_models/compact.py",
    "manga_app/read_models/list_pages.py",
    "manga_app/read_models/columns.py",
)
NOT_PURE = ("manga_app/core/db.py", "manga_app/opds/queries.py", "manga_app/search/held_index.py")
FRAMEWORKS = ("reflex", "reflex_base", "sqlmodel", "sqlalchemy", "starlette")
# The parts below the UI never reach up into it.
BACKEND = ("accounts", "backup", "cards", "catalogue", "core", "demo", "engagement", "feeds", "opds", "read_models", "search")
UI_AND_WEB = ("reflex", "reflex_base", "manga_app.pages", "manga_app.ui", "manga_app.web", "manga_app.ssr",
              "manga_app.visitor")
PAGES = "manga_app.pages"
# Who may import the pages: the app (wiring them in) and the server renderer
# (running their on_load handlers).
PAGE_IMPORTERS = ("manga_app/manga_app.py", "manga_app/pages/", "manga_app/ssr/")


@dataclass(frozen=True)
class Import:
    module: str
    line: int


def module_name(path: str) -> str:
    parts = list(Path(path).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(source: str, module: str, *, is_package: bool = False) -> list[Import]:
    """Every module the source imports, anywhere in it (also inside functions
    and try blocks). `from a import b` counts as importing `a` and `a.b`, since
    `b` may be a submodule; relative imports are resolved against `module`."""
    found: list[Import] = []
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.extend(Import(alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(part for part in [*base_parts, node.module or ""] if part)
            else:
                base = node.module or ""
            found.append(Import(base, node.lineno))
            found.extend(Import(f"{base}.{alias.name}", node.lineno) for alias in node.names if alias.name != "*")
    return found


def is_within(imported: str, prefixes: tuple[str, ...]) -> bool:
    return any(imported == prefix or imported.startswith(prefix + ".") for prefix in prefixes)


def file_imports(tree: Tree, path: str) -> list[Import]:
    return imports_of(tree[path], module_name(path), is_package=path.endswith("/__init__.py"))


def matches(path: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatch(path, pattern) for pattern in patterns)


# --------------------------------------------------------------------------
# The rules
# --------------------------------------------------------------------------


def pure_modules_import_no_framework(tree: Tree) -> list[str]:
    return [
        f"{path}:{item.line} imports {item.module}"
        for path in tree
        if matches(path, PURE) and path not in NOT_PURE
        for item in file_imports(tree, path)
        if is_within(item.module, FRAMEWORKS)
    ]


def backend_never_imports_the_ui_or_the_web(tree: Tree) -> list[str]:
    return [
        f"{path}:{item.line} imports {item.module}"
        for path in tree
        if path.startswith(tuple(f"manga_app/{package}/" for package in BACKEND))
        for item in file_imports(tree, path)
        if is_within(item.module, UI_AND_WEB) or item.module.endswith("_state") or item.module.endswith(".state")
    ]


def only_the_app_and_the_renderer_import_pages(tree: Tree) -> list[str]:
    return [
        f"{path}:{item.line} imports {item.module}"
        for path in tree
        if path.startswith("manga_app/") and not path.startswith(PAGE_IMPORTERS[1:]) and path != PAGE_IMPORTERS[0]
        for item in file_imports(tree, path)
        if is_within(item.module, (PAGES,))
    ]


def _defines_reflex_state(source: str) -> bool:
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                name = ast.unparse(base)
                if name in ("rx.State", "rx.ComponentState") or name.endswith("State"):
                    return True
    return False


def is_state_module(path: str) -> bool:
    stem = Path(path).stem
    return stem == "state" or stem.endswith("_state")


def reflex_states_live_in_state_modules(tree: Tree) -> list[str]:
    """A module named `state` or `*_state` holds a Reflex state, and every
    Reflex state is in such a module: the name says where the states are."""
    found = []
    for path, source in tree.items():
        if not path.startswith("manga_app/") or "/demo/" in path:
            continue
        defines = _defines_reflex_state(source)
        if is_state_module(path) and not defines:
            found.append(f"{path} is named as a state module but holds no Reflex state")
        elif defines and not is_state_module(path):
            found.append(f"{path} holds a Reflex state but is not named `state` or `*_state`")
    return found


def no_module_over_the_line_limit(tree: Tree) -> list[str]:
    return [
        f"{path} has {count} lines (at most {MAX_LINES} outside demo/)"
        for path, source in tree.items()
        if path.startswith("manga_app/")
        and not path.startswith("manga_app/demo/")
        and (count := len(source.splitlines())) > MAX_LINES
    ]


def only_wiring_at_the_top(tree: Tree) -> list[str]:
    return [
        f"{path} is a loose module: put it in the package of its part"
        for path in tree
        if path.count("/") == 1 and path.startswith("manga_app/") and path not in WIRING
    ]


def every_package_says_what_it_owns(tree: Tree) -> list[str]:
    """Each package has an __init__.py whose docstring says what it owns."""
    found = []
    folders = {str(Path(path).parent) for path in tree if path.startswith("manga_app/")}
    for folder in sorted(folders):
        init = f"{folder}/__init__.py"
        if init not in tree:
            found.append(f"{folder} has no __init__.py")
        elif not ast.get_docstring(ast.parse(tree[init])):
            found.append(f"{init} has no docstring")
    return found


# Only archives.py (with its readers/) opens chapter archives; the scanner only lists names and
# stats; readings.py (kana and romaji of titles) is pure but for its dictionaries.
ARCHIVES = "manga_app/catalogue/archives.py"
SCANNER = "manga_app/catalogue/scanner.py"
READINGS = "manga_app/catalogue/readings.py"
READINGS_MAY_IMPORT = {"__future__", "functools", "re", "threading", "unicodedata", "typing", "sudachipy", "manga_app"}


def only_the_archive_module_opens_archives(tree: Tree) -> list[str]:
    found = [
        f"{path}:{item.line} imports {item.module}"
        for path in tree
        if path.startswith("manga_app/catalogue/") and "/readers/" not in path and path != ARCHIVES
        for item in file_imports(tree, path)
        if is_within(item.module, ("zipfile", "tarfile"))
    ]
    if SCANNER in tree:
        found += [
            f"{SCANNER}:{item.line} imports {item.module}"
            for item in file_imports(tree, SCANNER)
            if is_within(item.module, ("PIL", "manga_app.catalogue.archives", "manga_app.catalogue.media"))
        ]
        if "open(" in tree[SCANNER]:
            found.append(f"{SCANNER} opens a file")
    if READINGS in tree:
        found += [
            f"{READINGS}:{item.line} imports {item.module}"
            for item in file_imports(tree, READINGS)
            if item.module.split(".")[0] not in READINGS_MAY_IMPORT
        ]
    return found


# Every page is declared (core/pages.py) and its view joined to the
# declaration with `ui.page.page`; the registry alone adds pages to the app,
# at their declared routes, so no page is reachable undeclared.
PAGE_REGISTRY = "manga_app/pages/__init__.py"
PAGE_VIEWS = ("manga_app/pages/*/view.py", "manga_app/reader/view.py")
UNDECLARED_VIEWS = ("manga_app/pages/not_found/view.py",)  # the 404 page: no route of its own


def only_the_page_registry_adds_pages(tree: Tree) -> list[str]:
    return [
        f"{path}:{node.lineno} adds a page: declare it in core/pages.py and decorate its view with ui.page.page"
        for path, source in tree.items()
        if path.startswith("manga_app/") and path != PAGE_REGISTRY
        and any(is_within(item.module, ("reflex",)) for item in file_imports(tree, path))
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "add_page"
    ]


def _declared_with_page(function: ast.FunctionDef) -> bool:
    return any(isinstance(item, ast.Call) and ast.unparse(item.func).split(".")[-1] == "page" for item in function.decorator_list)


def every_page_view_is_declared(tree: Tree) -> list[str]:
    return [
        f"{path}:{node.lineno} view() is not declared with @page(PageKind...)"
        for path, source in tree.items()
        if matches(path, PAGE_VIEWS) and path not in UNDECLARED_VIEWS
        for node in ast.parse(source).body
        if isinstance(node, ast.FunctionDef) and node.name == "view" and not _declared_with_page(node)
    ]


# Imports between packages go one way: no package reaches, through any
# chain of others, back to itself. Every group of packages that reach each
# other is reported, with each import that ties the group together, so one
# run shows all that is left to untie.


def package_edges(tree: Tree) -> dict[tuple[str, str], str]:
    """(importing package, imported package) -> the first place it happens."""
    packages = {path.split("/")[1] for path in tree if path.startswith("manga_app/") and path.count("/") >= 2}
    edges: dict[tuple[str, str], str] = {}
    for path in sorted(tree):
        if not path.startswith("manga_app/") or path.count("/") < 2:
            continue
        source = path.split("/")[1]
        for item in file_imports(tree, path):
            parts = item.module.split(".")
            if parts[0] == "manga_app" and len(parts) > 1 and parts[1] in packages and parts[1] != source:
                edges.setdefault((source, parts[1]), f"{path}:{item.line}")
    return edges


def _reachable(edges: set[tuple[str, str]], start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for source, target in edges:
            if source == todo[-1] and target not in seen:
                seen.add(target)
                todo.insert(0, target)
        todo.pop()
    return seen


def package_cycles(edges: set[tuple[str, str]]) -> list[list[str]]:
    """The groups of packages that reach each other (each sorted), every
    package in at most one group."""
    packages = sorted({package for edge in edges for package in edge})
    reach = {package: _reachable(edges, package) for package in packages}
    groups: list[list[str]] = []
    for package in packages:
        if package in reach[package] and not any(package in group for group in groups):
            groups.append(sorted(other for other in reach[package] if package in reach[other]))
    return groups


def no_cycles_between_packages(tree: Tree) -> list[str]:
    edges = package_edges(tree)
    found = []
    for group in package_cycles(set(edges)):
        ties = "; ".join(f"{a} -> {b} at {edges[(a, b)]}" for a, b in sorted(edges) if a in group and b in group)
        found.append(f"cycle between {', '.join(group)}: {ties}")
    return found


# One way to ask who the visitor is (issue 31): `visitor_uid(state)` in
# visitor/auth_state.py. Only AuthState's module and the session guard that
# suspends it read its `_uid`; a state may keep a `_uid` of its own (self._uid).
VISITOR_UID_READERS = ("manga_app/visitor/auth_state.py", "manga_app/visitor/session_guard.py")


def one_way_to_ask_who_the_visitor_is(tree: Tree) -> list[str]:
    return [
        f"{path}:{node.lineno} reads {ast.unparse(node)}: ask visitor_uid(state) (visitor/auth_state.py)"
        for path, source in tree.items()
        if path.startswith("manga_app/") and path not in VISITOR_UID_READERS
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr == "_uid"
        and not (isinstance(node.value, ast.Name) and node.value.id == "self")
    ]


# Every change to the frameworks is in the platform wing (issue 31), where each
# module says what it overrides, why, and what upstream change it waits for.
# Elsewhere nothing touches a private name of theirs: no import of one, no
# `module._x` or `Class._x` reached from one of their names, no `_x` of a
# parameter typed as one of their classes, no `_keyword=` to one of their
# callables, and no `_x` that the site itself never defines (so `self._x` in a
# subclass of theirs, a method Reflex keeps to itself, is seen too).
PLATFORM = "manga_app/platform/"
PLATFORM_LIBRARIES = ("reflex", "reflex_base", "engineio", "socketio", "uvicorn", "starlette")


def _is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _names_the_site_defines(tree: Tree) -> set[str]:
    defined: set[str] = set()
    for source in tree.values():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                defined.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defined.add(node.id)
            elif isinstance(node, ast.arg):
                defined.add(node.arg)
    return defined


def _root_name(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Call, ast.Subscript)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _library_privates(source: str, defined: set[str]) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    module = ast.parse(source)
    theirs: set[str] = set()  # local names bound to the libraries' modules, classes and functions
    for node in ast.walk(module):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if is_within(alias.name, PLATFORM_LIBRARIES):
                    theirs.add(alias.asname or alias.name.split(".")[0])
                    if any(_is_private(part) for part in alias.name.split(".")):
                        found.append((node.lineno, f"imports {alias.name}"))
        elif isinstance(node, ast.ImportFrom) and not node.level and is_within(node.module or "", PLATFORM_LIBRARIES):
            if any(_is_private(part) for part in node.module.split(".")):
                found.append((node.lineno, f"imports {node.module}"))
            for alias in node.names:
                theirs.add(alias.asname or alias.name)
                if _is_private(alias.name):
                    found.append((node.lineno, f"imports {node.module}.{alias.name}"))
    if not theirs:
        return found
    typed = {
        arg.arg
        for node in ast.walk(module)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        if arg.annotation is not None and _root_name(arg.annotation) in theirs
    }
    for node in ast.walk(module):
        if isinstance(node, ast.Attribute) and _is_private(node.attr):
            if _root_name(node.value) in theirs | typed or node.attr not in defined:
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Call) and _root_name(node.func) in theirs:
            found += [(node.lineno, f"{ast.unparse(node.func)}({word.arg}=...)")
                      for word in node.keywords if word.arg and _is_private(word.arg)]
        elif isinstance(node, ast.ClassDef) and any(
            _root_name(base) in theirs and not ast.unparse(base).endswith("State") for base in node.bases
        ):  # a subclass of theirs (a state's own `_x` vars and helpers are Reflex's public way)
            found += [(item.lineno, f"{node.name}.{item.name} in a subclass of theirs") for item in node.body
                      if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and _is_private(item.name)]
    return found


def only_the_platform_wing_touches_framework_privates(tree: Tree) -> list[str]:
    defined = _names_the_site_defines({path: source for path, source in tree.items() if path.startswith("manga_app/")})
    return [
        f"{path}:{line} uses a private name of the framework ({what}): that change belongs in {PLATFORM}"
        for path, source in tree.items()
        if path.startswith("manga_app/") and not path.startswith(PLATFORM)
        for line, what in sorted(set(_library_privates(source, defined)))
    ]


WING_RECORD = ("Overrides:", "Why:", "Waits for:")


def every_wing_module_says_what_it_overrides(tree: Tree) -> list[str]:
    """Each module of the wing that uses a framework says what it overrides,
    why, and what upstream change it waits for."""
    return [
        f"{path} does not say {label!r} in its docstring"
        for path, source in tree.items()
        if path.startswith(PLATFORM) and path.endswith(".py")
        and any(is_within(item.module, PLATFORM_LIBRARIES) for item in file_imports(tree, path))
        for label in WING_RECORD
        if label not in (ast.get_docstring(ast.parse(source)) or "")
    ]


RULES: dict[str, Callable[[Tree], list[str]]] = {
    "pure": pure_modules_import_no_framework,
    "backend": backend_never_imports_the_ui_or_the_web,
    "pages": only_the_app_and_the_renderer_import_pages,
    "states": reflex_states_live_in_state_modules,
    "size": no_module_over_the_line_limit,
    "top": only_wiring_at_the_top,
    "packages": every_package_says_what_it_owns,
    "archives": only_the_archive_module_opens_archives,
    "registry": only_the_page_registry_adds_pages,
    "declared": every_page_view_is_declared,
    "cycles": no_cycles_between_packages,
    "visitor": one_way_to_ask_who_the_visitor_is,
    "platform": only_the_platform_wing_touches_framework_privates,
    "wing": every_wing_module_says_what_it_overrides,
}

# A tree that keeps every rule: the base of the broken trees below.
GOOD: Tree = {
    "manga_app/__init__.py": '"""The site."""\n',
    "manga_app/manga_app.py": "from manga_app.pages import home\n",
    "manga_app/core/__init__.py": '"""Core."""\n',
    "manga_app/core/routes.py": "import re\n",
    "manga_app/pages/__init__.py": '"""Pages."""\n',
    "manga_app/pages/home/__init__.py": '"""Home."""\n',
    "manga_app/pages/home/state.py": "import reflex as rx\n\nclass HomeState(rx.State):\n    pass\n",
    "manga_app/pages/home/logic.py": "from manga_app.core import routes\n",
    "manga_app/pages/home/view.py": "from manga_app.ui.page import page\n\n@page(PageKind.HOME)\ndef view():\n    pass\n",
    "manga_app/catalogue/__init__.py": '"""Catalogue."""\n',
    "manga_app/catalogue/archives.py": "import zipfile\n",
    "manga_app/catalogue/scanner.py": "import os\n",
    "manga_app/catalogue/readings.py": "import unicodedata\n",
}
# For each rule, a change that breaks it (a path, and its new source).
BROKEN: dict[str, tuple[str, str]] = {
    "pure": ("manga_app/pages/home/logic.py", "import reflex as rx\n"),
    "backend": ("manga_app/core/routes.py", "from manga_app.ui import layout\n"),
    "pages": ("manga_app/core/routes.py", "from manga_app.pages.home import state\n"),
    "states": ("manga_app/pages/home/state.py", "import json\n"),
    "size": ("manga_app/core/routes.py", "x = 1\n" * (MAX_LINES + 1)),
    "top": ("manga_app/helpers.py", "import re\n"),
    "packages": ("manga_app/core/__init__.py", "import re\n"),
    "archives": ("manga_app/catalogue/media.py", "import zipfile\n"),
    "registry": ("manga_app/manga_app.py", "import reflex as rx\n\napp = rx.App()\napp.add_page(ranking, route='/ranking')\n"),
    "declared": ("manga_app/pages/home/view.py", "import reflex as rx\n\ndef view():\n    pass\n"),
    "cycles": ("manga_app/core/routes.py", "from manga_app.pages.home import logic\n"),
    "visitor": ("manga_app/pages/home/state.py", "import reflex as rx\n\nclass HomeState(rx.State):\n"
                "    async def f(self):\n        return (await self.get_state(AuthState))._uid\n"),
    "platform": ("manga_app/ssr/states.py", "from reflex.state import _resolve_delta\n"),
    "wing": ("manga_app/platform/__init__.py",
             '"""The wing.\n\nOverrides: App._preprocess.\nWhy: a hook."""\n\nfrom reflex.app import App\n'),
}
# The other way for the two-sided rules.
BROKEN_TOO: dict[str, tuple[str, str]] = {
    "states": ("manga_app/pages/home/view.py", "import reflex as rx\n\nclass HomeState(rx.State):\n    pass\n"),
    "packages": ("manga_app/ui/layout.py", "import reflex as rx\n"),
    "archives": ("manga_app/catalogue/scanner.py", "def f(path):\n    return open(path)\n"),
    "platform": ("manga_app/web/event_socket.py", "from reflex.app import App\n\ndef f(app: App):\n    return app._api\n"),
}


# --------------------------------------------------------------------------
# The collector and the rules, on trees made to break them
# --------------------------------------------------------------------------

COLLECTOR_CASES = [
    pytest.param("import reflex as rx", "manga_app.x", False, {"reflex"}, id="import"),
    pytest.param("import sqlalchemy.orm", "manga_app.x", False, {"sqlalchemy.orm"}, id="dotted-import"),
    pytest.param(
        "from starlette.requests import Request",
        "manga_app.x",
        False,
        {"starlette.requests", "starlette.requests.Request"},
        id="from-import",
    ),
    pytest.param("from manga_app import pages", "manga_app.x", False, {"manga_app", "manga_app.pages"}, id="from-package"),
    pytest.param("from .pages import home", "manga_app.x", False, {"manga_app.pages", "manga_app.pages.home"}, id="relative"),
    pytest.param(
        "from ..web import shell",
        "manga_app.catalogue.cli",
        False,
        {"manga_app.web", "manga_app.web.shell"},
        id="relative-two-levels",
    ),
    pytest.param(
        "from . import db", "manga_app.core", True, {"manga_app.core", "manga_app.core.db"}, id="relative-in-package-init"
    ),
    pytest.param("def f():\n    import reflex\n", "manga_app.x", False, {"reflex"}, id="inside-function"),
    pytest.param(
        "try:\n    import sqlmodel\nexcept ImportError:\n    pass\n", "manga_app.x", False, {"sqlmodel"}, id="inside-try"
    ),
]


@pytest.mark.parametrize(("source", "module", "is_package", "expected"), COLLECTOR_CASES)
def test_the_import_collector_sees_every_kind_of_import(source, module, is_package, expected):
    assert {item.module for item in imports_of(source, module, is_package=is_package)} == expected


@pytest.mark.parametrize(
    ("imported", "prefixes", "expected"),
    [
        pytest.param("reflex", ("reflex",), True, id="exact"),
        pytest.param("reflex.utils", ("reflex",), True, id="submodule"),
        pytest.param("reflex_base", ("reflex",), False, id="longer-name-is-not-a-submodule"),
        pytest.param("manga_app.pages_helpers", ("manga_app.pages",), False, id="sibling-name"),
    ],
)
def test_a_forbidden_prefix_covers_the_module_and_its_submodules_only(imported, prefixes, expected):
    assert is_within(imported, prefixes) is expected


@pytest.mark.parametrize("rule", RULES)
def test_each_rule_holds_on_the_good_tree(rule):
    assert RULES[rule](GOOD) == []


@pytest.mark.parametrize(
    ("rule", "change"),
    [pytest.param(rule, change, id=rule) for rule, change in BROKEN.items()]
    + [pytest.param(rule, change, id=f"{rule}-other-way") for rule, change in BROKEN_TOO.items()],
)
def test_each_rule_fails_on_a_tree_that_breaks_it(rule, change):
    path, source = change
    broken = {**GOOD, path: source}
    found = RULES[rule](broken)
    assert found and all(path in line or str(Path(path).parent) in line for line in found), found


def test_the_cycle_rule_reports_every_cycle_with_each_import_in_it():
    two = {**GOOD,
           "manga_app/core/routes.py": "from manga_app.pages.home import logic\n",
           "manga_app/ui/__init__.py": '"""UI."""\n', "manga_app/ui/layout.py": "from manga_app.web import shell\n",
           "manga_app/web/__init__.py": '"""Web."""\n', "manga_app/web/shell.py": "from manga_app.ui import layout\n"}
    found = no_cycles_between_packages(two)
    assert [line.split(":")[0] for line in found] == ["cycle between core, pages", "cycle between ui, web"], found
    assert "pages -> core at manga_app/pages/home/logic.py:1" in found[0]
    assert "core -> pages at manga_app/core/routes.py:1" in found[0]


PRIVATE_TOUCHES = [
    pytest.param("from reflex.state import _resolve_delta\n", True, id="private-name-imported"),
    pytest.param("from engineio._internal import x\n", True, id="private-module-imported"),
    pytest.param("import reflex.state\n\nf = reflex.state._resolve_delta\n", True, id="module-attribute"),
    pytest.param("from reflex.app import App\n\nApp._preprocess = None\n", True, id="class-attribute-replaced"),
    pytest.param("from reflex.app import App\n\ndef f(app: App):\n    return app._api\n", True, id="typed-parameter"),
    pytest.param("from reflex.state import State\n\nroot = State(_reflex_internal_init=True)\n", True,
                 id="private-keyword"),
    pytest.param("import reflex as rx\n\nclass S(rx.State):\n    def f(self):\n        return self._get_root_state()\n",
                 True, id="inherited-private-method"),
    pytest.param("from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol\n\n"
                 "class P(HttpToolsProtocol):\n    def _unset_keepalive_if_required(self):\n        pass\n",
                 True, id="private-method-overridden"),
    pytest.param("import reflex as rx\n\nclass S(rx.State):\n    _uid: str = ''\n\n    def f(self):\n"
                 "        return self._uid\n", False, id="the-sites-own-backend-var"),
    pytest.param("import reflex as rx\n\nclass S(rx.State):\n    def f(self):\n        return self.__class__\n",
                 False, id="dunder"),
    pytest.param("import json\n\nclass C:\n    def f(self, other):\n        return other._anything\n", False,
                 id="no-framework-imported"),
]


@pytest.mark.parametrize(("source", "touches"), PRIVATE_TOUCHES)
def test_the_platform_rule_sees_each_way_of_touching_a_private_name(source, touches):
    path = "manga_app/web/module.py"
    assert bool(only_the_platform_wing_touches_framework_privates({**GOOD, path: source})) is touches
    # The same source inside the wing is where it belongs.
    assert only_the_platform_wing_touches_framework_privates({**GOOD, "manga_app/platform/module.py": source}) == []


# --------------------------------------------------------------------------
# The rules on the real source
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def source_tree() -> Tree:
    return {
        path.relative_to(PROJECT_ROOT).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted((PROJECT_ROOT / "manga_app").rglob("*.py"))
    }


def test_the_source_tree_is_where_the_rules_expect_it(source_tree):
    assert "manga_app/manga_app.py" in source_tree
    for pattern in PURE:
        assert any(fnmatch(path, pattern) for path in source_tree), f"{pattern} matches nothing: update PURE"


def test_the_render_script_of_the_wing_says_what_it_overrides():
    header = (PROJECT_ROOT / PLATFORM / "renderer.mjs").read_text(encoding="utf-8").split("\nimport ", 1)[0]
    assert all(f"// {label}" in header for label in WING_RECORD), header


@pytest.mark.parametrize("rule", RULES)
def test_the_source_keeps_the_rule(source_tree, rule):
    found = RULES[rule](source_tree)
    assert found == [], f"{RULES[rule].__name__}:\n  " + "\n  ".join(found)
