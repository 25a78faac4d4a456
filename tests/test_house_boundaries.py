"""The house's boundaries above the rules (DESIGN.md): the tables are the web's one door (no
module of ``app/web`` imports the store, its rows or its database); background work calls
nothing back up (``app/solving`` imports neither the tables nor the web, ``app/records`` neither
the tables nor the web); the store knows the games only through the registry (it imports no
game); the live news render no page; no module imports inside a function to dodge a loop; and no
two modules of the app import each other, however long the loop.

(A game package imports only the core and itself: tests/games/test_boundaries.py.)"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app"

# An import inside a function is allowed only for a reason other than a loop, said beside it:
# a heavy module loaded where it is used, not by every process that imports the module.
LAZY_REASONS = ("memory", "not to dodge a loop", "loaded where it is asked", "gunicorn master", "DATABASE_COMMANDS",
                "a web worker never loads it", "2.4 MB", "(gevent", "Flask-Migrate")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def app_imports(path: Path) -> list[tuple[int, str, bool]]:
    """(line, module, inside a function) for each import of ``path`` naming the app's modules;
    ``from package import name`` names ``package.name`` where that is a module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside.update(id(child) for child in ast.walk(node) if child is not node)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, id(node) in inside) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                candidate = f"{module}.{alias.name}"
                is_module = (ROOT / candidate.replace(".", "/")).with_suffix(".py").exists() or (
                    ROOT / candidate.replace(".", "/") / "__init__.py").exists()
                found.append((node.lineno, candidate if is_module else module, id(node) in inside))
    return [(line, module, lazy) for line, module, lazy in found if module == "app" or module.startswith("app.")]


FILES = sorted(APP.rglob("*.py"))
IMPORTS = {module_name(path): app_imports(path) for path in FILES}
PATHS = {module_name(path): path for path in FILES}


def offenders(importer: str, imported: tuple[str, ...]) -> list[str]:
    bad = []
    for module, found in IMPORTS.items():
        if module == importer or module.startswith(importer + "."):
            for line, name, _lazy in found:
                if any(name == target or name.startswith(target + ".") for target in imported):
                    bad.append(f"{PATHS[module].relative_to(ROOT)}:{line} imports {name}")
    return bad


@pytest.mark.parametrize(("importer", "imported"), [
    ("app.web", ("app.store",)),  # the tables are the web's one door to the rows
    ("app.solving", ("app.tables", "app.web")),  # background work never seats anyone, never renders
    ("app.records", ("app.tables", "app.web", "app.solving")),
    ("app.store", ("app.games", "app.tables", "app.web", "app.records", "app.solving", "app.live")),
    ("app.live", ("app.tables", "app.web", "app.games")),
    ("app.tables", ("app.web",)),
    ("app.core", ("app.store", "app.tables", "app.web", "app.records", "app.solving", "app.live", "app.games")),
])
def test_a_part_never_imports_what_is_above_it(importer, imported):
    assert offenders(importer, imported) == []


def test_the_store_is_a_part_of_its_own():
    """The store's rows are ``app.store.models``: nothing outside the store, the tables, the
    records, solving, the live news, serving and the factory reads them."""
    allowed = ("app.store", "app.tables", "app.records", "app.solving", "app.live", "app.serving", "app.factory")
    bad = [f"{PATHS[module].relative_to(ROOT)}:{line}" for module, found in IMPORTS.items()
           if not module.startswith(allowed) for line, name, _lazy in found if name.startswith("app.store")]
    assert bad == []


def test_no_import_inside_a_function_dodges_a_loop():
    """Every import inside a function says why it is there (a heavy module loaded only where it
    is used); none is there to break a loop of imports."""
    bad = []
    for module, found in IMPORTS.items():
        lines = PATHS[module].read_text(encoding="utf-8").splitlines()
        for line, name, lazy in found:
            if lazy:
                around = " ".join(lines[max(0, line - 4):line + 1])
                if not any(reason in around for reason in LAZY_REASONS):
                    bad.append(f"{PATHS[module].relative_to(ROOT)}:{line} imports {name} inside a function")
    assert bad == []


def test_no_two_modules_of_the_app_import_each_other():
    """No loop of imports among the app's modules (at any depth); a package imports its modules
    and counts as itself."""
    graph: dict[str, set[str]] = defaultdict(set)
    for module, found in IMPORTS.items():
        for _line, name, lazy in found:
            target = name
            while target not in IMPORTS and "." in target:
                target = target.rpartition(".")[0]
            if target in IMPORTS and target != module and not lazy:
                # a package's face importing its own modules is how a package is made
                if module.startswith(target + ".") or target.startswith(module + "."):
                    continue
                graph[module].add(target)
    loops = []
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                loops.append(" -> ".join(path[path.index(nxt):] + [nxt]) if nxt in path else f"{node} -> {nxt}")
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for module in sorted(IMPORTS):
        if module not in state:
            visit(module, [module])
    assert loops == []
