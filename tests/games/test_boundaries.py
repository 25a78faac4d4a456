"""The house's boundaries (DESIGN.md): a game package imports only app.core and itself (never
the web, the database or another game); app.core imports nothing of the app; the rules modules
(everything but the terminal programs) read and write nothing. The sample sixth game of the tests
(tests/sample_game) is held to the same."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAME_FOLDERS = {path.name: path for path in (ROOT / "app" / "games").iterdir()
                if path.is_dir() and not path.name.startswith(("_", "."))}
GAME_FOLDERS["sample_game"] = ROOT / "tests" / "sample_game"
GAMES = sorted(GAME_FOLDERS)
WEB_LIBRARIES = {"flask", "flask_sqlalchemy", "flask_wtf", "flask_migrate", "sqlalchemy", "werkzeug", "jinja2"}
# Modules that only a terminal program (a door) may use.
IO_MODULES = {"app.core.terminal", "sys", "os", "subprocess", "shutil", "tempfile", "pathlib"}


def imports(path: Path) -> list[tuple[int, str]]:
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((node.lineno, module))
            found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
    return found


def python_files(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.py"))


def is_door(path: Path) -> bool:
    return path.name in ("__main__.py", "terminal.py")


def test_there_are_games():
    assert "mason" in GAMES


@pytest.mark.parametrize("game", GAMES)
def test_a_game_imports_only_the_core_and_itself(game):
    bad = []
    itself = ".".join(GAME_FOLDERS[game].relative_to(ROOT).parts)
    for path in python_files(GAME_FOLDERS[game]):
        for line, module in imports(path):
            top = module.split(".")[0]
            if top in WEB_LIBRARIES or (top == "app" and not module.startswith(("app.core", itself))):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("game", GAMES)
def test_only_the_terminal_program_reads_and_writes(game):
    bad = []
    for path in python_files(GAME_FOLDERS[game]):
        if is_door(path):
            continue
        for line, module in imports(path):
            if module in IO_MODULES or module.startswith("app.core.terminal"):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
        source = path.read_text(encoding="utf-8")
        for call in ("print(", "input(", "open("):
            if call in source.replace("def open(", ""):
                bad.append(f"{path.relative_to(ROOT)} calls {call[:-1]}")
    assert not bad, "\n".join(bad)


def test_the_core_imports_nothing_of_the_app():
    bad = []
    for path in python_files(ROOT / "app" / "core"):
        for line, module in imports(path):
            top = module.split(".")[0]
            if top in WEB_LIBRARIES or (top == "app" and not module.startswith("app.core")):
                bad.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert not bad, "\n".join(bad)
