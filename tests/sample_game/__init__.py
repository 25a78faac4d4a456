"""High card: a sixth game that lives in the tests, to show what adding a game takes (README's
"Adding a game"). It is built like every game of app/games: rules that import only app.core, a
computer player, statistics, its own templates; the table, replays, the scores page and the
generic tests serve it once it is registered. Unlike a game of app/games, importing it does not
register it: the tests register it for one test at a time (tests/support/sample.py), so every
other test sees the table's own games alone.

Rules
    H1  The deck: A 2 3 4 5 6 7 8 9 of clubs, diamonds, hearts and spades (36 cards). An ace
        counts 1, every other card its number; a hand is worth the sum of its cards.
    H2  The deal: one card to each seat, face down: only its seat sees it. The rest, face
        down, is the stock.
    H3  Seats take turns in seat order, from seat 1. The seat to move draws the stock's top
        card into its hand, face down, or passes; with the stock empty it can only pass.
    H4  A hand worth more than the limit (a set-up option, 15 unless chosen) is bust: it is
        turned face up, and its seat takes no more turns.
    H5  The game ends when every seat that is not bust has passed since the last draw, or when
        every seat is bust. Every hand is turned face up.
    H6  The highest hand that is not bust wins; every seat tied for it wins.

Glossary
    stock   the face-down pile that seats draw from, top first
    hand    a seat's cards, seen by that seat alone until it is bust or the game ends
    bust    worth more than the limit (H4)

Modules: ``actions``, ``state`` (the deck and ``HighCardState``), ``bot``, ``definition``
(``HighCardDefinition``, ``DEFINITION``), ``__main__`` (the terminal game); ``templates/`` holds
its board and its results.
"""

from .actions import Draw, Pass, action_from_dict, action_to_dict
from .bot import Cautious, RandomChoice
from .definition import DEFINITION, HighCardDefinition
from .state import DECK, HighCardState

__all__ = ["DECK", "DEFINITION", "Cautious", "Draw", "HighCardDefinition", "HighCardState", "Pass",
           "RandomChoice", "action_from_dict", "action_to_dict"]
