"""The definition of Classic Rummy that the registry holds (the protocol's ``GameDefinition``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from app.core.cards import Card
from app.core.guides import Guide
from app.core.protocol import EASY, NORMAL, STRONG, TAKE_BACKS, GameDefinition, Measured, Option, Stat

from . import actions
from .guide import GUIDE
from .bot import ComputerPlayer, RandomDiscardPlayer
from .cards import DECK
from .easy import EasyPlayer
from .state import (
    BY_SEATS, DEFAULT_TARGET, END_HAND, HAND_DEALT, HIGHEST_TARGET, LOWEST_TARGET, MAX_SEATS, MIN_SEATS, SEVEN,
    TURN_OVER, RummyState,
)
from .strong import StrongPlayer


class RummyDefinition(GameDefinition):
    key = "rummy"
    name = "Classic Rummy"
    round_lines = {HAND_DEALT: "Hand {hand}"}
    summary = "Melds and lay-offs on anyone's melds: the first to the target score wins."
    showcase = ("7H", "8H", "9H", "KC")  # a run of hearts (C3.2)
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    deck = DECK
    options = (
        Option("target", "Target score", "int", DEFAULT_TARGET, LOWEST_TARGET, HIGHEST_TARGET,
               help="The game ends after the hand in which a player reaches it."),
        Option("rummy_bonus", "Rummy bonus", "bool", True,
               help="Going out in one turn, with no earlier meld or lay-off, scores double.", house=True,
               rule="C9.1"),
        Option("must_discard", "Go out by discarding", "bool", False,
               help="Your last card must be a discard: you may not meld or lay off your whole hand.",
               house=True, rule="C9.2"),
        Option("discard_back", "Discard the card just taken", "bool", False,
               help="A card taken from the discard pile may go back on it in the same turn.",
               house=True, rule="C9.3"),
        Option("stock_out", "When the stock runs out", "choice", TURN_OVER,
               choices=((TURN_OVER, "Turn the discard pile over once"), (END_HAND, "The hand ends, no score")),
               help="What happens when a player draws from an empty stock.", house=True, rule="C9.4"),
        Option("deal_size", "Cards dealt", "choice", BY_SEATS,
               choices=((BY_SEATS, "By seat count (10, 7 or 6)"), (SEVEN, "Seven each")),
               help="Ten each for two players, seven for three or four, six for five or six; or seven each.",
               house=True, rule="C9.5"),
        TAKE_BACKS,
    )
    statistics = (  # C5.4
        Stat("games_played", "Games played"),
        Stat("games_won", "Games won"),
        Stat("games_lost", "Games lost"),
        Stat("best_winning_total", "Best winning total", combine="max"),
        Stat("hands_won", "Hands won"),
        Stat("rummies", "Rummies"),
    )
    bot = ComputerPlayer()
    other_bots = {EASY: EasyPlayer(), STRONG: StrongPlayer()}
    # ``python -m app.simulate --game rummy --games 1000 --ladder`` (seed 0), as docs/games/rummy.md says.
    measured = {STRONG: Measured(1000, share=0.710, against=NORMAL),
                NORMAL: Measured(1000, share=0.785, against=EASY),
                EASY: Measured(1000, share=0.994, against="random discards")}
    baseline_label = "random discards"
    action_types = actions.ACTION_TYPES
    guide: ClassVar[Guide] = GUIDE  # its guided first game ("Learn by playing")

    def baseline_bot(self, rng: random.Random) -> RandomDiscardPlayer:
        return RandomDiscardPlayer(rng)

    def new_state(self, names: Sequence[str], *, options: Mapping[str, Any] | None = None,
                  seed: int | str | None = None, stacked_deck: Sequence[Card] | None = None) -> RummyState:
        self.check_seats(names)
        values = self.validate_options(options)
        return RummyState.new(self, names, target=values["target"], rummy_bonus=values["rummy_bonus"], seed=seed,
                              stacked_deck=stacked_deck, must_discard=values["must_discard"],
                              discard_back=values["discard_back"], stock_out=values["stock_out"],
                              deal_size=values["deal_size"])

    def from_dict(self, data: Mapping[str, Any]) -> RummyState:
        if not isinstance(data, Mapping):
            raise ValueError("a saved game is a mapping")
        return RummyState.from_dict(self, data)

    action_from_dict = staticmethod(actions.action_from_dict)
    action_to_dict = staticmethod(actions.action_to_dict)


DEFINITION = RummyDefinition()
