"""The refusals of the tables: each says why, and which HTTP status answers it. A refused request
changed nothing (its transaction was rolled back: ``store.transaction``)."""

from __future__ import annotations

from flask_babel import gettext, lazy_gettext

from ..core.protocol import BadAction, GameDefinition, GameIsOver, IllegalAction, Move, NotYourTurn, said
from ..core.refusal import Refusal
from ..store.models import ABANDONED


class TableError(Refusal):
    """An action or request at a table that is refused."""


class NotFound(TableError):
    status = 404


class GameNotFound(NotFound):
    """The game asked for does not exist (not a table to show the message on)."""

    def __init__(self, message: str | None = None):
        super().__init__(message or gettext("There is no such game."))


class Forbidden(TableError):
    status = 403


class Conflict(TableError):
    """Stale view, out of turn, or a game that is over: the fresh table is shown."""

    status = 409


class Refused(TableError):
    """The rules refused the action (R6.3 and the like)."""

    status = 422


class TooMany(TableError):
    """A client address over one of its limits (wrong join codes, games set up)."""

    status = 429


class StillChecking(TooMany):
    """A game cannot be set up before the job runner has answered the questions its deal needs
    (deal only winnable games): asked, but not answered in the time a set-up may wait. Refused
    like a limit (the form is shown again with the message), but the client did nothing wrong."""

    status = 409


# (in the reader's language when they are shown: ``str()`` of each, in a request)
STALE = lazy_gettext("The table changed before your action arrived, so nothing was done. Here it is now.")
RELEASED = lazy_gettext("The host released your seat: ask them for its new code to play on.")
NO_OPEN_SEAT = lazy_gettext("No open seat has that code. Check the code, or ask the host for a new one "
                            "(a code works once, and expires when its game ends or after a day).")
GAME_OVER = lazy_gettext("This game is over, so nothing was done.")
ABANDONED_GAME = lazy_gettext("The host abandoned this game, so nothing was done.")


def game_over(status: str) -> str:
    """Why nothing can be done at a table that is not being played: over, or abandoned."""
    return str(ABANDONED_GAME if status == ABANDONED else GAME_OVER)


class ConfirmFirst(Exception):
    """A move that asks first (``Move.confirm``) was sent without its confirmation: nothing was
    done; ``move`` is the move to ask about."""

    def __init__(self, move: Move):
        super().__init__(move.confirm)
        self.move = move


def refusal(error: IllegalAction, definition: GameDefinition) -> TableError:
    """The door's answer to a rules refusal: a bad request, a conflict or a refusal, its message
    a sentence (a terminal prints a game's reason after "Error: ", a table shows it alone), with
    the game's words for the web (its ``say``, else its text as a template without fields)."""
    message = str(error)
    message = message[:1].upper() + message[1:]
    say = error.say if error.say is not None else said(str(error))
    deck_key = definition.deck.key if definition.deck is not None else None
    kind = TableError if isinstance(error, BadAction) else \
        Conflict if isinstance(error, (NotYourTurn, GameIsOver)) else Refused
    return kind(message, say=say, deck_key=deck_key)
