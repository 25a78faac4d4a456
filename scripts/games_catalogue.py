#!/usr/bin/env python3
"""The games' message catalogue (the Flask-Babel domain ``games``): every word a game gives the
web, extracted from the games' code, into translations/games.pot, merged into each language's
translations/<language>/LC_MESSAGES/games.po, and compiled to games.mo beside it.

    .venv/bin/python scripts/games_catalogue.py           # extract, update the .po files, compile
    .venv/bin/python scripts/games_catalogue.py --check   # exit 1 if games.pot or a .mo is stale

A game's package imports only app.core, so it never calls a translation function: its words are
found where they are made, by reading the code (``extract``, a Babel extraction method):

- the template of every ``said(...)`` text (a pair of texts: a plural), and of ``N_(...)``, the
  core's marker for words made anywhere else (a prompt a function returns);
- a ``Move``'s label, question (``confirm``) and yes button's words (``confirm_label``);
- the message of a refusal (a class of the ``IllegalAction`` family, or ``OptionError``)
  written as one text, and the template of a ``refusal(rule, cards, template, ...)``;
- an ``Option``'s label, help and choices' labels; a ``Stat``'s label; a ``GuideStep``'s words
  and a ``Guide``'s welcome and farewell; a definition's ``name``, ``summary`` and
  ``game_over_text``, and its ``score_unit`` (a plural).

A text given by a name (``said(HAND_DEALT, ...)``, ``Move(..., MENU_E[0])``) is the constant that
name holds at the top of any module of the games or the core (each text of a tuple or dict for a
subscript). Words with variable parts are templates with named fields; the web fills them in
(app/web/words.py).
"""

from __future__ import annotations

import ast
import functools
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "translations"
DOMAIN = "games"
LANGUAGES = ("es", "hi")
SOURCES = ("app/core/protocol.py", "app/core/guides.py", "app/core/cards.py", "app/core/decks.py")
GAMES = "app/games"

REFUSALS = {"IllegalAction", "NotYourTurn", "NotASeat", "WrongPhase", "BadAction", "GameIsOver", "PileEmpty",
            "CardNotInHand", "BadSelection", "LayDownRefused", "IllegalMove", "MeldRefused", "LayOffRefused",
            "TakenCardRefused", "LastCardRefused", "OptionError"}
WORDS = {"said", "N_"}  # their first argument
KEYWORDS = {  # a call's name: the positions and keywords of its words
    "Move": ((1,), ("label", "confirm", "confirm_label", "menu")),
    "Option": ((1,), ("label", "help")),
    "Stat": ((1,), ("label",)),
    "GuideStep": ((1,), ("say",)),
    "Guide": ((), ("welcome", "farewell")),
    "refusal": ((2,), ()),  # Seahaven's refusals: rule, cards, template
    "_why": ((1,), ()),  # Points Rummy's reasons a group is not valid: text, template (or a plural pair)
}
PLURALS = {"_why"}  # the calls among KEYWORDS whose template may be a pair (one, many)
CLASS_WORDS = {"name", "summary", "game_over_text", "item_noun"}  # a class's attributes that are words
CLASS_PLURALS = {"score_unit"}  # ... and those that are a pair of words (one, many)


def source_files() -> list[Path]:
    return [ROOT / name for name in SOURCES] + sorted((ROOT / GAMES).rglob("*.py"))


def texts(node: ast.AST | None) -> list[str]:
    """Every text a constant expression holds (a tuple's, a dict's values)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [text for element in node.elts for text in texts(element)]
    if isinstance(node, ast.Dict):
        return [text for value in node.values for text in texts(value)]
    return []


@functools.cache
def constants() -> dict[str, ast.AST]:
    """The module-level constants of the games and the core, by name (``NAME = ...``)."""
    found: dict[str, ast.AST] = {}
    for path in source_files():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    if isinstance(target, ast.Name) and texts(node.value):
                        found.setdefault(target.id, node.value)
    return found


def assignments(tree: ast.AST) -> dict[str, ast.AST]:
    """Every name the module ``tree`` assigns once anywhere (a constant, a local variable), by name."""
    found: dict[str, ast.AST] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            found.setdefault(node.targets[0].id, node.value)
    return found


def held_by(name: str, local: dict[str, ast.AST]) -> ast.AST | None:
    """What ``name`` holds: the module's own assignment first, else a constant of another module."""
    return local.get(name) or constants().get(name)


def words_of(node: ast.AST | None, plural: bool = False, local: dict[str, ast.AST] | None = None,
             depth: int = 0) -> list[str | tuple[str, str]]:
    """The messages an argument holds: a text, a pair of texts (a plural, where ``plural``), a
    name of a constant or a variable assigned once, a subscript of one, either branch of a
    condition."""
    local = local or {}
    if depth > 4:
        return []
    if node is None:
        return []
    if isinstance(node, ast.Constant):
        return [node.value] if isinstance(node.value, str) and node.value else []
    if plural and isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) == 2 and all(
            isinstance(element, ast.Constant) and isinstance(element.value, str) for element in node.elts):
        one, many = (texts(element)[0] for element in node.elts)
        return [(one, many)]
    if isinstance(node, ast.Name):
        held = held_by(node.id, local)
        return words_of(held, plural, local, depth + 1) if held is not None else []
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        held = held_by(node.value.id, local)
        if isinstance(held, ast.Dict):
            return [word for value in held.values for word in words_of(value, plural, local, depth + 1)]
        if isinstance(held, (ast.Tuple, ast.List)):
            return [word for element in held.elts for word in words_of(element, plural, local, depth + 1)]
        return []
    if isinstance(node, ast.IfExp):
        return words_of(node.body, plural, local, depth + 1) + words_of(node.orelse, plural, local, depth + 1)
    if isinstance(node, (ast.Tuple, ast.List)):
        return [text for text in texts(node) if text]
    return []


def call_name(call: ast.Call) -> str:
    func = call.func
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


def found_in(tree: ast.AST) -> Iterator[tuple[int, str, str | tuple[str, str]]]:
    """(line, what, message) for every message of the module ``tree``."""
    local = assignments(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for statement in node.body:
                if isinstance(statement, (ast.Assign, ast.AnnAssign)):
                    targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
                    if any(isinstance(target, ast.Name) and target.id in CLASS_WORDS for target in targets):
                        for word in words_of(statement.value, local=local):
                            yield statement.lineno, "class", word
                    if any(isinstance(target, ast.Name) and target.id in CLASS_PLURALS for target in targets):
                        for word in words_of(statement.value, plural=True, local=local):
                            yield statement.lineno, "class", word
            continue
        if not isinstance(node, ast.Call):
            continue
        name = call_name(node)
        if name in WORDS and node.args:
            for word in words_of(node.args[0], plural=True, local=local):
                yield node.lineno, name, word
        elif name in REFUSALS and node.args:
            for word in words_of(node.args[0], local=local):
                yield node.lineno, name, word
        elif name in KEYWORDS:
            positions, keywords = KEYWORDS[name]
            arguments = [node.args[index] for index in positions if index < len(node.args)]
            arguments += [keyword.value for keyword in node.keywords if keyword.arg in keywords]
            for argument in arguments:
                for word in words_of(argument, plural=name in PLURALS, local=local):
                    yield node.lineno, name, word
            if name == "Option":
                for keyword in node.keywords:
                    if keyword.arg == "choices" and isinstance(keyword.value, ast.Tuple):
                        for choice in keyword.value.elts:
                            if isinstance(choice, ast.Tuple) and len(choice.elts) == 2:
                                for word in words_of(choice.elts[1], local=local):
                                    yield node.lineno, name, word


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any, options: Any) -> Iterator[
        tuple[int, str, str | tuple[str, str], list[str]]]:
    """A Babel extraction method: the messages of one of the games' (or the core's) modules."""
    tree = ast.parse(fileobj.read().decode("utf-8"))
    for line, _what, word in found_in(tree):
        yield line, "ngettext" if isinstance(word, tuple) else "gettext", word, []


# The words of the web's own that name a game's things: cards (app/web/words.py).
WEB_WORDS = ("Joker", "joker", "jack", "queen", "king", "ace", "{rank} of {suit}", "Yes, {action}",
             "Spades", "Hearts", "Diamonds", "Clubs", "Patriots")


def catalogue() -> Any:
    """The template catalogue: every message of the games, in source order."""
    from babel.messages.catalog import Catalog

    template = Catalog(domain=DOMAIN, project="card-table", charset="utf-8", fuzzy=False)
    for path in source_files():
        with path.open("rb") as file:
            for line, _what, word, _comments in extract(file, None, None, None):
                template.add(word, locations=[(str(path.relative_to(ROOT)), line)])
    for word in WEB_WORDS:
        template.add(word, locations=[("app/web/words.py", 0)])
    return template


def main(argv: list[str]) -> int:
    # Babel's reading and writing of catalogues (a command-line tool's imports).
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po, write_po

    template = catalogue()
    pot = TRANSLATIONS / f"{DOMAIN}.pot"
    if "--check" in argv:
        with pot.open("rb") as file:
            kept = read_po(file)
        stale = {message.id for message in template if message.id} != {message.id for message in kept if message.id}
        print("translations/games.pot is stale: run scripts/games_catalogue.py" if stale else "games.pot is current")
        return 1 if stale else 0
    TRANSLATIONS.mkdir(exist_ok=True)
    with pot.open("wb") as file:
        write_po(file, template, width=100, omit_header=False, sort_output=False, include_lineno=False)
    for language in LANGUAGES:
        folder = TRANSLATIONS / language / "LC_MESSAGES"
        folder.mkdir(parents=True, exist_ok=True)
        po = folder / f"{DOMAIN}.po"
        if po.exists():
            with po.open("rb") as file:
                translated = read_po(file, locale=language)
        else:
            from babel.messages.catalog import Catalog

            translated = Catalog(locale=language, domain=DOMAIN)
        translated.update(template, no_fuzzy_matching=True)
        translated.obsolete.clear()
        with po.open("wb") as file:
            write_po(file, translated, width=100, sort_output=False, include_lineno=False)
        with (folder / f"{DOMAIN}.mo").open("wb") as file:
            write_mo(file, translated)
        missing = sum(1 for message in translated if message.id and not all(
            message.string if isinstance(message.string, tuple) else [message.string]))
        print(f"{language}: {len(translated)} messages, {missing} not translated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
