"""Architecture rules of the catalogue package, held by a test like Komga's."""

from __future__ import annotations

import ast
from pathlib import Path

import manga_app.catalogue

PACKAGE = Path(manga_app.catalogue.__file__).parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


def test_the_catalogue_never_imports_reflex_or_the_web_layer():
    for path in PACKAGE.glob("*.py"):
        for name in _imports(path):
            assert not name.startswith(
                ("reflex", "manga_app.pages", "manga_app.state", "manga_app.components")
            ), f"{path.name} imports {name}"


def test_only_archives_py_opens_archives_and_the_scanner_opens_nothing():
    for path in PACKAGE.glob("*.py"):
        if path.name != "archives.py":
            assert not {"zipfile", "tarfile"} & _imports(path), path.name
    scanner = _imports(PACKAGE / "scanner.py")
    assert not {"PIL", "manga_app.catalogue.archives", "manga_app.catalogue.media"} & scanner
    assert (
        ".open(" not in (PACKAGE / "scanner.py").read_text()
        and "open(" not in (PACKAGE / "scanner.py").read_text()
    )


def test_readings_is_a_pure_module():
    assert _imports(PACKAGE / "readings.py") <= {
        "__future__",
        "functools",
        "re",
        "unicodedata",
        "typing",
        "fugashi",  # MeCab with its bundled dictionary: no I/O beyond it
        "pykakasi",
    }
