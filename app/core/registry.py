"""The games the table offers. A game's package registers its definition when imported; the
doors import ``app.games``, which imports every game package, and then ask here."""

from __future__ import annotations

from .protocol import GameDefinition

_GAMES: dict[str, GameDefinition] = {}


class UnknownGame(KeyError):
    """No game is registered under that key."""


def register(definition: GameDefinition) -> GameDefinition:
    key = definition.key
    if not key or not key.isalnum() or not key.islower() or len(key) > 16:
        raise ValueError(f"a game key is 1-16 lower-case letters or digits, not {key!r}")
    existing = _GAMES.get(key)
    if existing is not None and existing is not definition:
        raise ValueError(f"a game is registered as {key!r} already")
    _GAMES[key] = definition
    return definition


def unregister(key: str) -> None:
    """Take a game off the table again (a test registers a game of its own for one test)."""
    _GAMES.pop(key, None)


def get(key: str) -> GameDefinition:
    try:
        return _GAMES[key]
    except (KeyError, TypeError):
        raise UnknownGame(key) from None


def games() -> list[GameDefinition]:
    """Every registered game, in the order they were registered."""
    return list(_GAMES.values())
