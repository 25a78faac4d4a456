"""The house serves every game alike: what it needs to know of a game is data of the game's
definition (set-up flow, decks folder, score keeping), never a test of its key. Outside each
game's own folders (app/games/<key>/, templates/games/<key>/) no code or template names a game's
key: no ``key == "mason"`` (nor ``!=``, ``in``), no ``"mason"`` default."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import app.games  # noqa: F401  (registers every game)
from app.core import registry

ROOT = Path(__file__).resolve().parents[2]
KEYS = {definition.key for definition in registry.games()}
# Jinja's {{ ... }} and {% ... %}: where a template could compare or default to a game's key.
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
QUOTED = re.compile(r"""["']([^"'\s]+)["']""")


def house_python_files() -> list[Path]:
    return [path for path in (ROOT / "app").rglob("*.py") if "games" not in path.relative_to(ROOT / "app").parts[:1]]


def names_a_key(node: ast.AST) -> bool:
    """A string constant that is a game's key (alone, or in a tuple, list or set of constants)."""
    if isinstance(node, ast.Constant):
        return node.value in KEYS
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(names_a_key(element) for element in node.elts)
    return False


def test_the_registry_has_every_game_package_of_the_table():
    """Each package of app/games registers its game under the package's name (its one line in
    app/games/__init__.py), and nothing else is registered."""
    assert KEYS == {path.parent.name for path in (ROOT / "app" / "games").glob("*/__init__.py")}


def key_literals(tree: ast.AST) -> list[ast.AST]:
    """Where a module names a game's key: a comparison with one (``==``, ``!=``, ``in``), or a
    key as a value (a default, an argument, an operand of ``or``). A word that is also a key
    ("points") is left alone where it is a name: a dict key, a subscript, an element of a
    tuple or list of names (``__slots__``)."""
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            if any(names_a_key(side) for side in [node.left, *node.comparators]):
                found.append(node)
        elif isinstance(node, ast.Constant) and node.value in KEYS:
            parent = parents.get(node)
            if isinstance(parent, ast.Compare) or isinstance(parent, (ast.Tuple, ast.List, ast.Set)) and \
                    isinstance(parents.get(parent), ast.Compare):
                continue  # (found as its comparison)
            if isinstance(parent, (ast.Tuple, ast.List, ast.Set, ast.Subscript)):
                continue
            if isinstance(parent, ast.Dict) and node in parent.keys:
                continue
            found.append(node)
    return sorted(found, key=lambda node: (node.lineno, node.col_offset))


def test_no_python_of_the_house_names_a_game_key():
    offenders = []
    for path in house_python_files():
        for node in key_literals(ast.parse(path.read_text(), str(path))):
            offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert offenders == []


def test_no_template_of_the_house_names_a_game_key():
    offenders = []
    for path in (ROOT / "templates").rglob("*.html"):
        if path.relative_to(ROOT / "templates").parts[0] == "games":
            continue
        text = path.read_text()
        for block in JINJA.finditer(text):
            for literal in QUOTED.findall(block.group()):
                if literal in KEYS:
                    line = text.count("\n", 0, block.start()) + 1
                    offenders.append(f"{path.relative_to(ROOT)}:{line}: {block.group()}")
        # ...and no element's id made for one game ("stats-mason")
        for match in re.finditer(r'\bid="([^"{]*)"', text):
            if set(re.split(r"[-_]", match.group(1))) & KEYS:
                offenders.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}: {match.group()}")
    assert offenders == []


def test_the_scans_find_what_they_look_for():
    """The scans are not blind: what they refuse is found in a sample, and words that are also
    keys are not."""
    tree = ast.parse('if definition.key == "mason": pass\nx = get("rummy")\nif kind in ("points", "x"): pass\n'
                     'y = z or "twentyone"\ndef f(game="seahaven"): pass\n'
                     '__slots__ = ("points", "label")\nfigures = {"points": 1}\nn = row["points"]\n')
    assert [ast.unparse(node) for node in key_literals(tree)] == [
        "definition.key == 'mason'", "'rummy'", "kind in ('points', 'x')", "'twentyone'", "'seahaven'"]
    sample = '{% if kind == "seahaven" %}x{% endif %}{{ deck_key or "mason" }}'
    assert [literal for block in JINJA.finditer(sample) for literal in QUOTED.findall(block.group())
            if literal in KEYS] == ["seahaven", "mason"]
