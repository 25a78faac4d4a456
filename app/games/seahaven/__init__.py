"""Seahaven Towers: a one-player solitaire (rule book: docs/rules/seahaven-towers.md, S1-S6).

Glossary
--------
column      one of the ten tableau columns (``t1``-``t10``); its *top* card was dealt first, its
            *bottom* card last, and only the bottom card moves (S2.1)
cell        one of the four cells (``c1``-``c4``), each holding at most one card (S3.4)
foundation  one of the four foundations (``f1``-``f4``), built up by suit from the ace (S3.2)
home        on a foundation; the game is won when all 52 cards are home (S3.6)
open deal   every card dealt to the columns (S2.3), the default
classic deal  50 cards to the columns, cards 51 and 52 to cells 2 and 3 (S2.4)
deal number the number of a shuffle: the same number always deals the same cards
stuck       no legal move left and not won: lost, but undo is still offered (S3.6)
run         cards of one suit in a column, each one lower than the card it covers (S3.3)
unit        (solver) a column's bottom run, which the solver moves as a whole through the cells

auto-move   (web table, an option) a card sent home by itself after the player's move, in the
            same action: always safe, since a card only ever takes the next lower card of its
            own suit (S3.3), which must be home first (S3.2); one undo takes both back
finish      every card left sent home at once, when each can get there by moves to the
            foundations alone

Modules: ``rules`` (the layout and the moves), ``deals`` (deal numbers), ``actions``, ``state``
(``SeahavenState``, the protocol's state), ``definition`` (``SeahavenDefinition``), ``solver``
(the exact solver, S5), ``analysis`` (the solver's questions as the web asks them off the
request path), ``bot`` (the computer player), ``__main__`` (the terminal game, S4, and the
solver's command line, S5.1).
"""

from app.core.registry import register

from .actions import Finish, GiveUp, MoveCard, Undo
from .deals import MAX_DEAL, deal_cards, first_winnable_deal
from .definition import DEFINITION, SeahavenDefinition
from .state import SeahavenState

register(DEFINITION)

__all__ = ["DEFINITION", "MAX_DEAL", "Finish", "GiveUp", "MoveCard", "SeahavenDefinition", "SeahavenState", "Undo",
           "deal_cards", "first_winnable_deal"]
