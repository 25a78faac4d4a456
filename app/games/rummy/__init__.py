"""Classic Rummy (key ``rummy``): a 52-card rummy for 2 to 6 players, to a target score. The rule
book is ``docs/rules/classic-rummy.md``; rule numbers (``C3.3``) refer to it.

Glossary (the user's notes' words, and where they live)
--------------------------------------------------------
Card         one of the 52 cards (``app.core.cards.Card``), ranks ``A 2 ... K``, the ace low only,
             points A 1, 2-9 their number, T J Q K 10 (C1); numbered 0-51 here (``cards.py``).
Deck         ``state.Deck``: the 52 cards in order, shuffled, dealt from the top, one card at a time
             to each seat from the hand's first player (C2.3); a stacked deck is the same every hand.
Pile         ``state.Pile``: the face-down stock and the face-up discard pile; cards are taken from
             and placed on the top. An empty stock is the discard pile turned over, once (C4).
Player Hand  ``state.PlayerHand``: the cards a player holds, always in hand order (suit C D H S,
             then rank).
Player       ``state.Player``: a name, a hand, a score; ``AI`` is a computer player (``bot.py``, C6).
meld         a set (3 or 4 cards of one rank) or a run (3 or more of one suit in a row) laid face
             up on the table; numbered from 1 in the order laid down, each with its owner
             (``melds.Meld``, C3.2).
lay off      add one card from the hand to ANY meld on the table, if it stays a set or run (C3.2).
going out    having no card left, by a meld, a lay-off or the discard: the hand ends (C3.4).
rummy        going out in one turn with no meld or lay-off in one's earlier turns: double (C5.2).
hand         a deal and its turns, numbered from 1; a void hand (C4.2) counts as one.

Modules: ``cards`` (numbers and masks), ``melds`` (the one meld and lay-off judge), ``actions``,
``state`` (the state machine, ``RummyState``), ``definition`` (``RummyDefinition``, what the
registry holds), ``bot`` (the computer player), ``__main__`` (the terminal game,
``python -m app.games.rummy``, C8).
"""

from app.core.registry import register

from .definition import DEFINITION, RummyDefinition
from .state import RummyState

register(DEFINITION)

__all__ = ["DEFINITION", "RummyDefinition", "RummyState"]
