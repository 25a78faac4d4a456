"""Players' names, for every game: R3.2 (1-24 printable characters, trimmed) and R3.4 (the name
``AI`` in any case makes a computer seat, and may sit several times)."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

COMPUTER_NAME = "AI"
MAX_NAME_LENGTH = 24
# A search key is cut here: taking the accents off can make one character many (U+FDFA, a
# ligature, is 18 letters), and a name's key is kept beside it, in a column this long.
SEARCH_KEY_LENGTH = 100


class NameRefused(ValueError):
    """A name that may not take this seat; the message says why."""


def search_key(text: str) -> str:
    """A name (or a search for one) as searches compare it: its accents taken off and its case
    folded, so "zoe" finds "Zoë" and "ZOË"; at most ``SEARCH_KEY_LENGTH`` characters."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()[:SEARCH_KEY_LENGTH]


def is_computer_name(name: str) -> bool:
    """R3.4: ``AI`` in any case (of its ASCII letters: Unicode's upper case makes a dotless "ı" an I)."""
    name = name.strip()
    return name.isascii() and name.upper() == COMPUTER_NAME


# A computer player of another strength than the normal one, as the records keep it apart: "AI (strong)".
COMPUTER_OF_STRENGTH = re.compile(r"AI \(([a-z]+)\)", re.IGNORECASE | re.ASCII)


def computer_name(strength: str | None = None) -> str:
    """The name a computer seat's results are kept under: ``AI`` for the normal player (R3.4: all
    its seats one row), ``AI (easy)``, ``AI (strong)`` for the others, so that a win against
    the strong player is never counted as one against the easy one."""
    return COMPUTER_NAME if strength in (None, "", "normal") else f"{COMPUTER_NAME} ({strength})"


def is_computer_record(name: str) -> bool:
    """Whether ``name`` is a computer player's in the records (``AI``, ``AI (strong)``): no person
    may take it."""
    return is_computer_name(name) or COMPUTER_OF_STRENGTH.fullmatch(name.strip()) is not None


def check_player_name(raw: str) -> str:
    """R3.2: a trimmed name of 1-24 printable characters; returns it trimmed or raises."""
    name = raw.strip()
    if not name:
        raise NameRefused("A name cannot be empty.")
    if len(name) > MAX_NAME_LENGTH:
        raise NameRefused(f"A name can have at most {MAX_NAME_LENGTH} characters.")
    if not name.isprintable():
        raise NameRefused("A name can only hold printable characters.")
    return name


def admit_new_name(raw: str, seated: Iterable[str], *, known: Callable[[str], bool] | None = None,
                   computer_allowed: bool = True, known_hint: str = "") -> str:
    """A new player's name for the next seat, or ``NameRefused``.

    The name must be well formed, not already at the table (ignoring case) and, where the game
    keeps a table of names (``known``: Mason Rummy's score table, R3.2), not in it either. ``AI``
    is the one exception (R3.4), when the game has a computer player: it returns ``AI``."""
    name = check_player_name(raw)
    if is_computer_name(name):
        if not computer_allowed:
            raise NameRefused("This game has no computer player: type a person's name.")
        return COMPUTER_NAME
    if is_computer_record(name):
        raise NameRefused(f"The name {name} is a computer player's: choose a computer player for this seat instead.")
    taken_here = any(name.casefold() == other.casefold() for other in seated if not is_computer_name(other))
    if taken_here or (known is not None and known(name)):
        raise NameRefused(f"The name {name} is already taken{known_hint}.")
    return name
