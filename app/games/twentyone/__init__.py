"""21 against the dealer (rule book: docs/rules/twenty-one.md, T1-T7).

Glossary
    card        a card of the 52-card deck, rank then suit (``TH``); ``Card`` adds which way up
                it lies: ``[ JD ]`` face up, ``[ xx ]`` face down (T1.3)
    value       A is 1, 2-9 their number, T J Q K 10 (T1.2); a hand's value is the sum
    deck        the queue the cards are dealt from, front first (``Deck``, T2.1); it carries on
                from round to round (T3.7)
    discard     where the cards of a finished round go (T3.5); shuffled into the empty deck
                when a card is needed (T3.6, "Repopulating deck with cards...")
    dealer      part of the state, not a seat: two cards, the second face down until the dealer
                plays; takes cards while 16 or less (T3.4)
    hit / stay  a player's two moves; over 21 is bust (T3.2), exactly 21 after a hit wins at
                once (T3.3, "a natural 21")
    round       a deal, every player's turn in seat order, the dealer's turn if someone stands,
                a result for each player against the dealer (T3, T7.1)
    table       ``Table``: the players, the dealer, the deck and the discard pile

Modules: ``cards`` (Card, Deck, EmptyDeckException, deck files), ``table`` (Player, Table),
``actions``, ``state`` (``TwentyOneState``, the protocol's state), ``bot`` (the computer players:
easy, normal, strong, and the random baseline), ``expectation`` (the exact expected return of
hitting and staying, the strong player's), ``definition`` (``TwentyOneDefinition``),
``__main__`` (the terminal game, T6).
"""

from app.core.registry import register

from .actions import Deal, EndTable, Hit, Stay, action_from_dict, action_to_dict
from .bot import CardCounter, DealerRule, Hopeful, RandomChoice
from .cards import DECK, Card, Deck, EmptyDeckException, InvalidDeckData, parse_deck_file
from .definition import DEFINITION, TwentyOneDefinition
from .state import TwentyOneState
from .table import Player, Table

register(DEFINITION)

__all__ = [
    "DECK", "DEFINITION", "Card", "CardCounter", "Deal", "DealerRule", "Deck", "EmptyDeckException", "EndTable",
    "Hit", "Hopeful",
    "InvalidDeckData", "Player", "RandomChoice", "Stay", "Table", "TwentyOneDefinition", "TwentyOneState",
    "action_from_dict", "action_to_dict", "parse_deck_file",
]
