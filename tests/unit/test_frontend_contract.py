"""The contract between Python and the browser's scripts (issue 31), checked
on the source as text:

- every JS island (a Reflex component whose `library` is one of
  assets/js) takes exactly the props and events its Python class declares,
  with their types (`rx.Var[...]`, `rx.EventHandler[...]`), under their
  camelCase names, so neither side can rename or drop one alone;
- no script text in Python and no `window.manga*` globals: the site's
  scripts import one another, and what a button does in the browser alone
  is a `data-action` (manga_app/ui/actions.py) that assets/js/actions.js
  runs, the two lists of action names alike.

Each rule is a function of the sources, shown to fail on a small broken
case before it is trusted on the real ones."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS_ROOT = "assets/js/"
ACTIONS_JS = "assets/js/actions.js"
ACTIONS_PY = "manga_app/ui/actions.py"
# Props every component takes from React, not from its Python class.
REACT_PROPS = {"children"}
_GLOBAL = re.compile(r"window\.(manga\w+)")
# Reflex's ways of running script text in the browser (run_script's string, eval'd ones, callbacks).
_SCRIPT_TEXT = re.compile(r"\brx\.(run_script|call_script|call_function)\(")


@dataclass
class Island:
    path: str  # the Python module
    name: str  # the Python class
    script: str  # the JS module, relative to the project
    tag: str
    props: dict[str, str] = field(default_factory=dict)  # camelCase -> "prop" or "event"


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _asset(node: ast.AST, assets: dict[str, str]) -> str | None:
    """The assets/js path a `library = ...` value names, if any."""
    if isinstance(node, ast.Name):
        return assets.get(node.id)
    for call in ast.walk(node):
        if (isinstance(call, ast.Call) and ast.unparse(call.func).endswith("asset") and call.args
                and isinstance(call.args[0], ast.Constant) and str(call.args[0].value).startswith("js/")):
            return "assets/" + call.args[0].value
    return None


def islands_of(path: str, source: str) -> list[Island]:
    module = ast.parse(source)
    assets = {target.id: found for node in module.body if isinstance(node, ast.Assign)
              for target in node.targets if isinstance(target, ast.Name)
              if (found := _asset(node.value, {}))}
    classes: dict[str, dict] = {}
    for node in module.body:
        if not isinstance(node, ast.ClassDef):
            continue
        inherited = next((classes[ast.unparse(base)] for base in node.bases if ast.unparse(base) in classes), None)
        if inherited is None and not any(ast.unparse(base).endswith("Component") for base in node.bases):
            continue
        found = {"script": None, "tag": None, "props": {}} if inherited is None else {
            "script": inherited["script"], "tag": None, "props": dict(inherited["props"])}
        for item in node.body:
            if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
                if item.targets[0].id == "library":
                    found["script"] = _asset(item.value, assets)
                elif item.targets[0].id == "tag" and isinstance(item.value, ast.Constant):
                    found["tag"] = item.value.value
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                kind = ast.unparse(item.annotation)
                if kind.startswith("rx.Var["):
                    found["props"][camel(item.target.id)] = "prop"
                elif kind.startswith("rx.EventHandler["):
                    found["props"][camel(item.target.id)] = "event"
        classes[node.name] = found
    return [Island(path, name, found["script"], found["tag"], found["props"])
            for name, found in classes.items() if found["script"] and found["tag"]]


def _names(pattern: str) -> set[str]:
    """The names a destructuring pattern `{ a, b = 1, c: d, ...rest }` binds from its object."""
    depth, part, parts = 0, "", []
    for char in pattern:
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            parts.append(part)
            part = ""
        else:
            part += char
    parts.append(part)
    return {match.group(1) for item in parts if (match := re.match(r"\s*(\w+)", item)) and "..." not in item}


def props_taken(script: str, tag: str) -> set[str] | None:
    """What the script's exported component `tag` reads of its props (None: no such export)."""
    found = re.search(rf"export function {tag}\(\s*(\{{.*?\}})?\s*(\w+)?\s*\)\s*\{{", script, re.S)
    if found is None:
        return None
    if found.group(1):
        return _names(found.group(1)[1:-1])
    name = found.group(2)
    if name is None:
        return set()
    taken = set(re.findall(rf"\b{name}\.(\w+)", script))
    for pattern in re.findall(rf"const\s*\{{(.*?)\}}\s*=\s*{name}\s*;", script, re.S):
        taken |= _names(pattern)
    return taken


def islands_take_what_python_declares(python: dict[str, str], scripts: dict[str, str]) -> list[str]:
    found = []
    for path, source in python.items():
        for island in islands_of(path, source):
            taken = props_taken(scripts.get(island.script, ""), island.tag)
            if taken is None:
                found.append(f"{path} {island.name}: {island.script} exports no function {island.tag}")
                continue
            found += [f"{path} {island.name}.{name} ({kind}): {island.script} {island.tag} does not take it"
                      for name, kind in sorted(island.props.items()) if name not in taken]
            found += [f"{island.script} {island.tag} reads {name}: {path} {island.name} declares no such prop or event"
                      for name in sorted(taken - set(island.props) - REACT_PROPS)]
    return found


def no_script_text_or_globals(python: dict[str, str], scripts: dict[str, str]) -> list[str]:
    found = [f"{path} runs script text ({match.group(1)}): declare a data-action ({ACTIONS_PY})"
             for path, source in sorted(python.items()) for match in _SCRIPT_TEXT.finditer(source)]
    found += [f"{path} uses window.{name}: import it instead"
              for path, source in sorted({**python, **scripts}.items())
              for name in sorted(set(_GLOBAL.findall(source)))]
    declared = set(re.findall(r'"([a-z-]+)"', python.get(ACTIONS_PY, "").partition("Literal[")[2].partition("]")[0]))
    body = scripts.get(ACTIONS_JS, "").partition("export const ACTIONS = {")[2].partition("\n};")[0]
    runs = set(re.findall(r'^  "?([a-z-]+)"?:', body, re.M))
    found += [f"{ACTIONS_PY} declares action {name!r}, which {ACTIONS_JS} does not run" for name in sorted(declared - runs)]
    found += [f"{ACTIONS_JS} runs action {name!r}, which {ACTIONS_PY} does not declare" for name in sorted(runs - declared)]
    return found


RULES = {"islands": islands_take_what_python_declares, "script text": no_script_text_or_globals}

GOOD_PYTHON = {
    "manga_app/ui/thing.py": (
        'import reflex as rx\n\n_JS = rx.asset("js/thing.jsx").importable_path\n\n'
        "class Thing(rx.Component):\n    library = _JS\n    tag = \"Thing\"\n\n"
        "    page_count: rx.Var[int]\n    on_turn: rx.EventHandler[lambda page: [page]]\n\n"
        "class Other(Thing):\n    tag = \"Other\"\n"
    ),
    ACTIONS_PY: 'Action = Literal[\n    "share", "dialog-open",\n]\n',
    "manga_app/ui/title.py": 'X = rx.el.button("共有", custom_attrs=action("share"))\n',
}
GOOD_SCRIPTS = {
    "assets/js/thing.jsx": (
        "export function Thing({ pageCount = 0, onTurn, children }) {\n  return children;\n}\n"
        "export function Other(props) {\n  const { onTurn } = props;\n  return props.pageCount;\n}\n"
    ),
    ACTIONS_JS: 'export const ACTIONS = {\n  share: () => {\n    x();\n  },\n  "dialog-open": ({ target }) => y(target),\n};\n',
    "assets/js/save.jsx": 'import { notify } from "./notify.js";\nnotify("info", "x");\n',
}
BROKEN = {
    "islands": [
        ("assets/js/thing.jsx", "export function Thing({ pages, onTurn }) {\n}\nexport function Other(props) {\n}\n"),
        ("manga_app/ui/thing.py", GOOD_PYTHON["manga_app/ui/thing.py"].replace("page_count", "page_total")),
    ],
    "script text": [
        ("assets/js/save.jsx", "if (window.mangaNotify) window.mangaNotify('info', 'x');\n"),
        ("manga_app/ui/title.py", 'X = rx.el.button("共有", on_click=rx.run_script("navigator.share()"))\n'),
        ("manga_app/ui/notify.py", 'X = rx.call_script("notify()")\n'),
        (ACTIONS_PY, GOOD_PYTHON[ACTIONS_PY].replace('"share", ', '"share", "copy", ')),
        (ACTIONS_JS, GOOD_SCRIPTS[ACTIONS_JS].replace("  share:", "  copy: () => z(),\n  share:")),
    ],
}


@pytest.mark.parametrize("rule", RULES)
def test_each_contract_rule_holds_on_a_good_case(rule):
    assert RULES[rule](GOOD_PYTHON, GOOD_SCRIPTS) == []


@pytest.mark.parametrize(("rule", "change"), [pytest.param(rule, change, id=f"{rule}-{number}")
                                              for rule, changes in BROKEN.items()
                                              for number, change in enumerate(changes)])
def test_each_contract_rule_fails_on_a_case_that_breaks_it(rule, change):
    path, source = change
    python = {**GOOD_PYTHON, **({path: source} if path.endswith(".py") else {})}
    scripts = {**GOOD_SCRIPTS, **({path: source} if not path.endswith(".py") else {})}
    assert RULES[rule](python, scripts)


def test_a_props_object_is_read_where_it_is_spread_and_destructured():
    script = "export function A(props) {\n  return <B {...props} />;\n}\nfunction B(props) {\n  const { x = 1, y: z, ...rest } = props;\n}\n"
    assert props_taken(script, "A") == {"x", "y"}


@pytest.fixture(scope="module")
def sources() -> tuple[dict[str, str], dict[str, str]]:
    python = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
              for path in sorted((ROOT / "manga_app").rglob("*.py"))}
    scripts = {path.relative_to(ROOT).as_posix(): path.read_text(encoding="utf-8")
               for path in sorted((ROOT / JS_ROOT).rglob("*")) if path.suffix in (".js", ".jsx", ".mjs")}
    return python, scripts


def test_the_real_islands_are_found(sources):
    python, _ = sources
    found = {island.tag for path, source in python.items() for island in islands_of(path, source)}
    assert {"MangaReader", "FirebaseAuth", "OfflineRoot", "SearchSuggest"} <= found, found


@pytest.mark.parametrize("rule", RULES)
def test_the_source_keeps_the_contract(sources, rule):
    found = RULES[rule](*sources)
    assert found == [], "\n  ".join([RULES[rule].__name__, *found])
