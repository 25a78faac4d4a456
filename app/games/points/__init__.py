"""Points Rummy: 13-card Indian rummy, points variant (rule book ``docs/rules/points-rummy.md``,
P1-P7), for 2 to 6 seats, people and computer players mixed.

Glossary:

- *deal*: one hand of the game, from dealing 13 cards each to a declaration (P2, P6.1); a game
  is 1 to 10 deals, its result each player's net total.
- *wild joker indicator*: the card turned up after the deal; every card of its rank is a
  *joker* this deal (the aces when it is a printed joker), besides the printed jokers (P2.2).
- *closed deck* / *open pile*: the face-down stock and the face-up discards (P2.3).
- *pure sequence*: 3+ consecutive cards of one suit, no card standing in (P3.1); *impure
  sequence*: one with jokers standing in (P3.2); *set*: 3-4 cards of one rank in different suits,
  jokers allowed (P3.3); a *group* is any of these.
- *arrangement*: a player's own groups of their cards (private), labelled by the server.
- *finish card*: the card set apart when declaring; the other 13 must all be in groups, two
  sequences at least, one pure (P5.1). A *wrong declaration* costs 80 (P5.3).
- *drop*: giving up the deal before drawing: 20 points before a first draw, 40 after (P4.3).
- *evaluator*: the fewest points a hand can count over every arrangement (P5.4), ``evaluator``.

Modules: ``cards`` (decks, jokers, points), ``groups`` (judging groups and declarations),
``evaluator``, ``actions``, ``state`` (``PointsState``), ``bot`` (the computer player and the
random baseline), ``definition`` (``PointsDefinition``, what the registry holds), ``__main__``
(the terminal game).
"""

from app.core.registry import register

from .definition import DEFINITION, PointsDefinition
from .state import PointsState

register(DEFINITION)

__all__ = ["DEFINITION", "PointsDefinition", "PointsState"]
