"""Stacked decks, for every game, each checked by its game's own parser
(``GameDefinition.parse_deck``) when it is read and before an upload is stored.

Where they live:
- deck files in the folder a game's definition names (``decks_folder``): ``decks/<key>/`` by
  default, ``decks/`` itself for Mason Rummy (its terminal game reads there, R9.4). The shipped
  decks are such files, the same on every server of a checkout;
- decks uploaded through the admin page: in the database (``uploaded_decks``), so every server
  sharing it offers them. The server that receives an upload also writes it to its decks folder,
  for the terminal games on that computer (R9.4: they read files). The database decides: an
  uploaded deck is read from it, even where a file of that name exists, and a deleted deck (a row
  without content) is offered by no server, whatever file of that name a decks folder holds.

``read_deck_file`` and the folder functions need no database (the terminal games use them);
``deck_names``, ``resolve``, ``read_offered``, ``store_upload`` and ``withdraw`` are the web's,
and read the database when an app context is there.
"""

from __future__ import annotations

import os
import re

import sqlalchemy as sa
from flask import has_app_context
from flask_babel import gettext

from .. import store
from ..core.cards import Card
from ..core.decks import DeckError, decode_deck_bytes
from ..core.protocol import GameDefinition
from ..core.terminal import FileProblem, read_text_file, write_atomically
from ..extensions import db
from ..store.models import UploadedDeck, utcnow
from . import news

DECK_SUFFIX = ".deck"
MAX_DECK_NAME = 80  # characters of a deck file's name, ".deck" included


def subfolder(definition: GameDefinition) -> str:
    """The game's folder under the decks folder ("" for the decks folder itself)."""
    return definition.key if definition.decks_folder is None else definition.decks_folder


def folder_for(decks_root: str, definition: GameDefinition) -> str:
    return os.path.join(decks_root, subfolder(definition)) if subfolder(definition) else decks_root


def deck_title(file_name: str) -> str:
    """A deck file's name as players read it: ``void_hand.deck`` is "Void hand", ``ai_showcase.deck``
    "AI showcase", ``twoPlayers.deck`` "Two players". A deck file holds card codes and nothing
    else (R2.1), so its name is the only title it has; forms still post the file name."""
    stem = file_name[:-len(DECK_SUFFIX)] if file_name.lower().endswith(DECK_SUFFIX) else file_name
    spaced = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", stem).replace("_", " ").replace("-", " ").replace(".", " ")
    words = ["AI" if word.casefold() == "ai" else word.lower() if word[1:].islower() else word
             for word in spaced.split()]
    if not words:
        return file_name
    return words[0][:1].upper() + words[0][1:] + "".join(" " + word for word in words[1:])


def where(definition: GameDefinition) -> str:
    """The game's folder as players read it: ``decks/`` or ``decks/<key>/``."""
    return "/".join(filter(None, ["decks", subfolder(definition)])) + "/"


def file_names(decks_root: str, definition: GameDefinition) -> list[str]:
    """The ``.deck`` files of a game's folder, sorted; a name longer than ``MAX_DECK_NAME`` (a
    file copied there by hand) is left out, since a game could not keep it."""
    try:
        return sorted(name for name in os.listdir(folder_for(decks_root, definition))
                      if name.endswith(DECK_SUFFIX) and not name.startswith(".") and len(name) <= MAX_DECK_NAME)
    except OSError:
        return []


def read_deck_file(path: str | os.PathLike[str], definition: GameDefinition, seats: int | None = None) -> list[Card]:
    """Read and validate a deck file of ``definition``'s game; a file that cannot be read is a
    ``DeckError`` too (R2.2)."""
    try:
        text = read_text_file(path, what="deck file")
    except FileProblem as problem:
        raise DeckError(str(problem)) from None
    return definition.parse_deck(text, seats)


# -- the decks a game offers: files and the database ----------------------------------------------


def uploaded(definition: GameDefinition) -> dict[str, bytes | None]:
    """The database's decks of a game by name: the uploaded bytes, or None for a deleted deck.
    Empty outside an app context (a deck file read by a tool)."""
    if not has_app_context():
        return {}
    rows = db.session.execute(sa.select(UploadedDeck.name, UploadedDeck.content)
                              .where(UploadedDeck.game == definition.key)).all()
    return {name: content for name, content in rows}


def deck_names(decks_root: str, definition: GameDefinition) -> list[str]:
    """The decks a game offers, sorted: its folder's files and its uploaded decks, without the
    deleted ones."""
    stored = uploaded(definition)
    names = {name for name in file_names(decks_root, definition) if name not in stored}
    names.update(name for name, content in stored.items() if content is not None)
    return sorted(names)


def read_offered(decks_root: str, definition: GameDefinition, name: str, seats: int | None = None,
                 stored: dict[str, bytes | None] | None = None) -> list[Card]:
    """The cards of an offered deck (``name`` from ``deck_names``): the uploaded one if there is
    one, else the file."""
    stored = uploaded(definition) if stored is None else stored
    content = stored.get(name)
    if content is not None:
        return definition.parse_deck(decode_deck_bytes(content), seats)
    return read_deck_file(os.path.join(folder_for(decks_root, definition), name), definition, seats)


def resolve(decks_root: str, definition: GameDefinition, answer: str, seats: int | None = None) -> tuple[str, list[Card]]:
    """An offered deck by name (``.deck`` may be left out) or by its title; only plain names."""
    if len(answer) > MAX_DECK_NAME:
        raise DeckError(gettext("a deck file's name has at most %(num)s characters", num=MAX_DECK_NAME))
    stored = uploaded(definition)
    names = deck_names(decks_root, definition)
    name = answer if answer in names else (answer + DECK_SUFFIX if answer + DECK_SUFFIX in names else answer)
    if name not in names:  # the deck's name as the page shows it ("Quick out") finds its file too
        titled = [offered for offered in names if deck_title(offered).casefold() == answer.casefold()]
        name = titled[0] if len(titled) == 1 else name
    if os.path.basename(name) != name or name.startswith("."):
        example = names[0] if names else "game.deck"
        raise DeckError(gettext("'%(answer)s' is not a deck file name: type just the name, such as %(example)s",
                                answer=answer, example=example))
    if name not in names:
        raise DeckError(gettext("there is no deck file named '%(answer)s' in %(folder)s", answer=answer,
                                folder=where(definition)))
    return name, read_offered(decks_root, definition, name, seats, stored)


class DeckExists(Exception):
    """A deck of that name is offered already (and replacing it was not asked for)."""


def store_upload(decks_root: str, definition: GameDefinition, name: str, data: bytes, replace: bool) -> None:
    """Store an uploaded deck (already checked by the game's parser) in the database, and write
    this server's copy into its decks folder (for the terminal games), as one change: if the file
    cannot be written, nothing is stored (``OSError``). ``DeckExists`` unless ``replace`` (also
    when another server stored one of that name just now)."""

    @news.command
    def storing() -> None:
        store.begin_write()
        if name in deck_names(decks_root, definition) and not replace:
            raise DeckExists(name)
        put_row(definition, name, data)
        db.session.flush()
        folder = folder_for(decks_root, definition)
        os.makedirs(folder, exist_ok=True)
        write_atomically(os.path.join(folder, name), data, prefix=".upload-")  # (never leaves its temporary file)
        try:
            db.session.commit()
        except Exception as error:
            _remove_quietly(os.path.join(folder, name))  # no copy of what was not stored
            if isinstance(error, sa.exc.IntegrityError):
                raise DeckExists(name) from None
            raise

    storing()


def put_row(definition: GameDefinition, name: str, content: bytes | None) -> None:
    """The database's word on deck ``name`` for every server, in the caller's transaction: its
    content, or None (withdrawn: a file of that name is not offered either)."""
    row = db.session.execute(sa.select(UploadedDeck).where(
        UploadedDeck.game == definition.key, UploadedDeck.name == name)).scalar_one_or_none()
    if row is None:
        db.session.add(UploadedDeck(game=definition.key, name=name, content=content, changed_at=utcnow()))
    else:
        row.content, row.changed_at = content, utcnow()


def withdraw(decks_root: str, definition: GameDefinition, name: str) -> bool:
    """Stop offering the deck ``name`` on every server (a row without content), and remove this
    server's file of it; False if it is not offered."""

    @news.command
    def deleting() -> bool:
        store.begin_write()
        if name not in deck_names(decks_root, definition):
            db.session.rollback()
            return False
        put_row(definition, name, None)
        db.session.commit()
        return True

    if not deleting():
        return False
    _remove_quietly(os.path.join(folder_for(decks_root, definition), name))
    return True


def _remove_quietly(path: str) -> None:
    try:
        os.remove(path)
    except OSError:  # not there (another server's upload), or not ours to remove: no longer offered anyway
        pass
