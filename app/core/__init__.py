"""The shared core of the card table: what every game is built on. Pure: no Flask, no database,
no reading or writing (but ``terminal``, which the terminal programs use).

cards      ``Card`` and ``DeckSpec``: the cards of any deck (ranks, suits, copies, jokers)
decks      the one deck-file parser, parametrised by the deck
protocol   ``GameDefinition``, ``GameState``, ``Move``, ``Outcome``, the typed refusals
registry   the games the table offers
autoplay   the one loop that runs computer players
names      players' names (R3.2, R3.4)
menus      typed menu answers and card selections (R9.1, R5.5)
saved      reading the plain data of saved states
terminal   the terminal programs' input, output and file reading
"""

from .autoplay import autoplay, computer_seats, one_seat
from .cards import Card, DeckSpec, InvalidCardError
from .decks import DeckError, parse_deck
from .protocol import (
    EVERYONE, NOBODY, OWN, TABLE, TURN, ActionKind, ActionType, BadAction, BadSelection, Bot, CardNotInHand,
    GameDefinition, GameIsOver, GameState, IllegalAction, Move, NotASeat, NotYourTurn, Option, OptionError, Outcome,
    PileEmpty, SeatResult, Stat, View, WrongPhase, Zone,
)
from .registry import UnknownGame, games, get, register

__all__ = [
    "EVERYONE", "NOBODY", "OWN", "TABLE", "TURN", "ActionKind", "ActionType", "BadAction", "BadSelection", "Bot",
    "Card", "CardNotInHand", "DeckError", "DeckSpec", "GameDefinition", "GameIsOver", "GameState", "IllegalAction",
    "InvalidCardError", "Move", "NotASeat", "NotYourTurn", "Option", "OptionError", "Outcome", "PileEmpty",
    "SeatResult", "Stat", "UnknownGame", "View", "WrongPhase", "Zone", "autoplay", "computer_seats", "games", "get",
    "one_seat", "parse_deck", "register",
]
