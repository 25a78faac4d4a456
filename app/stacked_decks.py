"""Stacked deck files on disk, for every game, in the folder its definition names
(``decks_folder``): ``decks/<key>/`` by default, ``decks/`` itself for Mason Rummy (its terminal
game reads there, R9.4). Each is checked by its game's own parser (``GameDefinition.parse_deck``)
when it is read and before an upload is stored."""

from __future__ import annotations

import os

from .core import registry
from .core.cards import Card
from .core.decks import DeckError
from .core.protocol import GameDefinition
from .core.terminal import FileProblem, read_text_file

DECK_SUFFIX = ".deck"
MAX_DECK_NAME = 80  # characters of a deck file's name, ".deck" included


def subfolder(definition: GameDefinition) -> str:
    """The game's folder under the decks folder ("" for the decks folder itself)."""
    return definition.key if definition.decks_folder is None else definition.decks_folder


def folder_for(decks_root: str, definition: GameDefinition) -> str:
    return os.path.join(decks_root, subfolder(definition)) if subfolder(definition) else decks_root


def where(definition: GameDefinition) -> str:
    """The game's folder as players read it: ``decks/`` or ``decks/<key>/``."""
    return "/".join(filter(None, ["decks", subfolder(definition)])) + "/"


def deck_names(decks_root: str, definition: GameDefinition) -> list[str]:
    """The ``.deck`` files of a game's folder, sorted; a name longer than ``MAX_DECK_NAME`` (a
    file copied there by hand) is left out, since a game could not keep it."""
    try:
        return sorted(name for name in os.listdir(folder_for(decks_root, definition))
                      if name.endswith(DECK_SUFFIX) and not name.startswith(".") and len(name) <= MAX_DECK_NAME)
    except OSError:
        return []


def read_deck_file(path: str | os.PathLike, definition: GameDefinition | None = None,
                   seats: int | None = None) -> list[Card]:
    """Read and validate a deck file of ``definition``'s game (the first registered game's, if
    None); a file that cannot be read is a ``DeckError`` too (R2.2)."""
    if definition is None:
        import app.games  # noqa: F401  (registers every game)

        definition = registry.games()[0]
    try:
        text = read_text_file(path, what="deck file")
    except FileProblem as problem:
        raise DeckError(str(problem)) from None
    return definition.parse_deck(text, seats)


def resolve(decks_root: str, definition: GameDefinition, answer: str, seats: int | None = None) -> tuple[str, list[Card]]:
    """A deck of the game's folder by name (``.deck`` may be left out); only plain names."""
    if len(answer) > MAX_DECK_NAME:
        raise DeckError(f"a deck file's name has at most {MAX_DECK_NAME} characters")
    names = deck_names(decks_root, definition)
    name = answer if answer in names else (answer + DECK_SUFFIX if answer + DECK_SUFFIX in names else answer)
    if os.path.basename(name) != name or name.startswith("."):
        example = names[0] if names else "game.deck"
        raise DeckError(f"'{answer}' is not a deck file name: type just the name, such as {example}")
    if name not in names:
        raise DeckError(f"there is no deck file named '{answer}' in {where(definition)}")
    return name, read_deck_file(os.path.join(folder_for(decks_root, definition), name), definition, seats)
