"""The rules of Mason Rummy: one pure module shared by the web app, the terminal game and the AI.

Nothing here imports Flask or the database, prints or reads input. Rule numbers (``R6.3``) refer
to RULES.md.

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
"""

from .actions import (
    DISCARD_PILE, STOCK, Action, BadSelection, CardNotInHand, Discard, Draw, GameIsOver, IllegalAction,
    LayDown, LayDownRefused, NextRound, NotYourTurn, PileEmpty, RoundOver, WrongPhase,
    action_from_dict, action_to_dict,
)
from .cards import FULL_DECK, SUITS, VALUES, Card, InvalidCardError, full_deck
from .decks import DeckError, parse_deck, read_deck_file
from .game import DRAW_PHASE, GAME_OVER, PLAY_PHASE, ROUND_OVER, ROUNDS, Game, Outcome
from .melds import CardSet, LayOffs, NewSet, Refusal, is_meld, is_run, judge_lay_down
from .players import ComputerPlayer, Hand, LivePlayer, Player, is_computer_name
from .scores import ScoreRow, ScoresFileError, ScoreTable

__all__ = [name for name in dir() if not name.startswith("_")]
