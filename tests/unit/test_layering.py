"""Architecture rules, checked on the source (parsed with `ast`, never
imported): which layers of manga_app may import which.

1. The pure modules import no web framework, ORM or HTTP library.
2. The catalogue and demo packages know nothing of the UI or the web layer.
3. Pages are wired in by manga_app/manga_app.py only.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PACKAGE = PROJECT_ROOT / "manga_app"

PURE_MODULES = ("core/display", "core/crypto", "core/routes", "ui/navigation", "heads/seo", "heads/build", "ui/theme", "reader/reading")
FRAMEWORKS = ("reflex", "reflex_base", "sqlmodel", "sqlalchemy", "starlette")
BACKEND_PACKAGES = ("catalogue", "demo", "opds")
UI_AND_WEB = (
    "reflex",
    "reflex_base",
    "manga_app.pages",
    "manga_app.components",
    "manga_app.state",
    "manga_app.web",
)
PAGES = "manga_app.pages"
PAGES_WIRING = "manga_app/manga_app.py"


@dataclass(frozen=True)
class Import:
    module: str
    line: int


def module_name(file: Path) -> str:
    parts = list(file.relative_to(PROJECT_ROOT).with_suffix("").parts)
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
            found.extend(
                Import(f"{base}.{alias.name}", node.lineno) for alias in node.names if alias.name != "*"
            )
    return found


def is_within(imported: str, prefixes: tuple[str, ...]) -> bool:
    return any(imported == prefix or imported.startswith(prefix + ".") for prefix in prefixes)


def python_files() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def imports_by_file() -> dict[str, list[Import]]:
    result = {}
    for file in python_files():
        relative = file.relative_to(PROJECT_ROOT).as_posix()
        result[relative] = imports_of(
            file.read_text(encoding="utf-8"), module_name(file), is_package=file.name == "__init__.py"
        )
    return result


def violations(files: dict[str, list[Import]], applies, forbidden: tuple[str, ...]) -> list[str]:
    return sorted(
        {
            f"{path}:{item.line} imports {item.module}"
            for path, imported in files.items()
            if applies(path)
            for item in imported
            if is_within(item.module, forbidden)
        }
    )


def report(rule: str, found: list[str]) -> str:
    return f"{rule}:\n  " + "\n  ".join(found)


# --------------------------------------------------------------------------
# The collector itself: a rule is only as good as the imports it sees.
# --------------------------------------------------------------------------

COLLECTOR_CASES = [
    pytest.param("import reflex as rx", "manga_app.heads.seo", False, {"reflex"}, id="import"),
    pytest.param("import sqlalchemy.orm", "manga_app.heads.seo", False, {"sqlalchemy.orm"}, id="dotted-import"),
    pytest.param(
        "from starlette.requests import Request",
        "manga_app.heads.seo",
        False,
        {"starlette.requests", "starlette.requests.Request"},
        id="from-import",
    ),
    pytest.param(
        "from manga_app import pages",
        "manga_app.x",
        False,
        {"manga_app", "manga_app.pages"},
        id="from-package",
    ),
    pytest.param(
        "from .pages import home",
        "manga_app.x",
        False,
        {"manga_app.pages", "manga_app.pages.home.view"},
        id="relative",
    ),
    pytest.param(
        "from ..web import shell",
        "manga_app.catalogue.cli",
        False,
        {"manga_app.web", "manga_app.web.shell"},
        id="relative-two-levels",
    ),
    pytest.param(
        "from . import db",
        "manga_app.catalogue",
        True,
        {"manga_app.catalogue", "manga_app.core.db"},
        id="relative-in-package-init",
    ),
    pytest.param("def f():\n    import reflex\n", "manga_app.heads.seo", False, {"reflex"}, id="inside-function"),
    pytest.param(
        "try:\n    import sqlmodel\nexcept ImportError:\n    pass\n",
        "manga_app.heads.seo",
        False,
        {"sqlmodel"},
        id="inside-try",
    ),
    pytest.param(
        "import json\nfrom decimal import Decimal\n",
        "manga_app.heads.seo",
        False,
        {"json", "decimal", "decimal.Decimal"},
        id="stdlib",
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
        pytest.param("manga_app.pages.home.view", ("manga_app.pages",), True, id="nested-page"),
    ],
)
def test_a_forbidden_prefix_covers_the_module_and_its_submodules_only(imported, prefixes, expected):
    assert is_within(imported, prefixes) is expected


def test_the_rules_see_a_violation_in_a_synthetic_tree():
    files = {
        "manga_app/heads/seo.py": imports_of("import reflex as rx", "manga_app.heads.seo"),
        "manga_app/catalogue/x.py": imports_of("from manga_app.web import shell", "manga_app.catalogue.x"),
    }
    assert violations(files, lambda path: path == "manga_app/heads/seo.py", FRAMEWORKS) == [
        "manga_app/heads/seo.py:1 imports reflex"
    ]
    assert violations(files, lambda path: path.startswith("manga_app/catalogue/"), UI_AND_WEB) == [
        "manga_app/catalogue/x.py:1 imports manga_app.web",
        "manga_app/catalogue/x.py:1 imports manga_app.web.shell",
    ]


# --------------------------------------------------------------------------
# The rules on the real source
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def source_imports() -> dict[str, list[Import]]:
    return imports_by_file()


def test_the_source_tree_is_where_the_rules_expect_it(source_imports):
    assert "manga_app/manga_app.py" in source_imports
    assert any(path.startswith("manga_app/pages/") for path in source_imports)


@pytest.mark.parametrize("name", PURE_MODULES)
def test_each_pure_module_exists(name):
    assert (PACKAGE / f"{name}.py").is_file(), f"manga_app/{name}.py moved: update the layering rules"


def test_pure_modules_import_no_framework_orm_or_http_library(source_imports):
    pure_paths = {f"manga_app/{name}.py" for name in PURE_MODULES}
    found = violations(source_imports, lambda path: path in pure_paths, FRAMEWORKS)
    assert found == [], report("pure modules must not import " + ", ".join(FRAMEWORKS), found)


@pytest.mark.parametrize("package", BACKEND_PACKAGES)
def test_backend_packages_never_import_the_ui_or_the_web_layer(source_imports, package):
    # The rule holds vacuously for a package that does not exist (yet).
    prefix = f"manga_app/{package}/"
    found = violations(source_imports, lambda path: path.startswith(prefix), UI_AND_WEB)
    assert found == [], report(f"manga_app/{package} must not import " + ", ".join(UI_AND_WEB), found)


# The server renderer runs each page's on_load from the same registry the app wires in.
SERVER_RENDERING = "manga_app/ssr/"


def test_only_the_app_module_and_the_server_renderer_import_the_pages(source_imports):
    found = violations(
        source_imports,
        lambda path: not path.startswith(("manga_app/pages/", SERVER_RENDERING)) and path != PAGES_WIRING,
        (PAGES,),
    )
    assert found == [], report(f"only {PAGES_WIRING} and {SERVER_RENDERING} may import {PAGES}", found)


def test_the_app_module_does_wire_in_the_pages(source_imports):
    assert any(is_within(item.module, (PAGES,)) for item in source_imports[PAGES_WIRING])
