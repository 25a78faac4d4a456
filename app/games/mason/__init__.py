"""Mason Rummy: the first game of the table. Its rules in one pure package (R1-R9 of
docs/RULES.md); nothing here imports Flask or the database, prints or reads input. Rule numbers
(``R6.3``) refer to RULES.md.

Terminology
-----------
card        one of 65: a value ``2-9 T J Q K A`` and a suit ``C D H S P`` (``TP``), R1.
deck        the 65 cards in some order; a stacked deck comes from a ``.deck`` file (R2).
hand        the cards a player holds, shown sorted by suit then value (R9.2).
meld        3 or more cards of the same value (R6.1).
run         3 or more cards of one suit with consecutive values, aces high only (R6.2).
set         a meld or a run laid down in front of a player; it only ever grows (R6.4).
lay-off     a single card laid onto one of the player's OWN sets (R6.3 step 2).
stock       the face-down pile to draw from; rebuilt from the discards when empty (R5.2).
discard pile the face-up pile; only its top card can be seen or drawn.
going out   emptying one's hand, by laying down or discarding the last card: the round ends (R5.7).
round       a deal and its turns; a game is 3 rounds; lowest total wins (R4.1, R7.3).

Modules: ``cards`` (the 65 cards), ``decks`` (stacked decks), ``melds`` (the one lay-down judge),
``players`` (hands, the player classes), ``actions``, ``state`` (the protocol's state, the game),
``bot`` (the computer player), ``definition`` (what the registry holds), ``menus`` and ``scores``
(the menus' words, the score table), ``__main__`` (the terminal game, R9: ``python -m
app.games.mason``, also ``python -m app.terminal``).
"""

from app.core import registry

from .actions import (
    ACTION_TYPES, DISCARD_PILE, STOCK, Action, BadAction, BadSelection, CardNotInHand, Discard, Draw, GameIsOver,
    IllegalAction, LayDown, LayDownRefused, NextRound, NotYourTurn, PileEmpty, RoundOver, WrongPhase,
    action_from_dict, action_to_dict,
)
from .cards import DECK, FULL_DECK, SUITS, VALUES, Card, InvalidCardError, full_deck, parse_card
from .decks import DeckError, parse_deck
from .definition import DEFINITION, MASON, MasonDefinition
from .melds import CardSet, LayOffs, NewSet, Refusal, is_meld, is_run, judge_lay_down
from .phases import DRAW_PHASE, GAME_OVER, PLAY_PHASE, ROUND_OVER
from .players import ComputerPlayer, Hand, LivePlayer, Player, is_computer_name
from .scores import ScoreRow, ScoresFileError, ScoreTable
from .state import ROUNDS, Game, MasonState, Outcome

registry.register(DEFINITION)

__all__ = [
    "ACTION_TYPES", "DECK", "DEFINITION", "DISCARD_PILE", "DRAW_PHASE", "FULL_DECK", "GAME_OVER", "MASON",
    "PLAY_PHASE", "ROUNDS", "ROUND_OVER", "STOCK", "SUITS", "VALUES", "Action", "BadAction", "BadSelection", "Card",
    "CardNotInHand", "CardSet", "ComputerPlayer", "DeckError", "Discard", "Draw", "Game", "GameIsOver", "Hand",
    "IllegalAction", "InvalidCardError", "LayDown", "LayDownRefused", "LayOffs", "LivePlayer", "MasonDefinition",
    "MasonState", "NewSet", "NextRound", "NotYourTurn", "Outcome", "PileEmpty", "Player", "Refusal", "RoundOver",
    "ScoreRow", "ScoreTable", "ScoresFileError", "WrongPhase", "action_from_dict", "action_to_dict", "full_deck",
    "is_computer_name", "is_meld", "is_run", "judge_lay_down", "parse_card", "parse_deck",
]
