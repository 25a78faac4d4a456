"""The definition of Classic Rummy that the registry holds (the protocol's ``GameDefinition``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.core.cards import Card
from app.core.protocol import EASY, NORMAL, STRONG, GameDefinition, Measured, Option, Stat

from . import actions
from .bot import ComputerPlayer, RandomDiscardPlayer
from .cards import DECK
from .easy import EasyPlayer
from .state import DEFAULT_TARGET, HIGHEST_TARGET, LOWEST_TARGET, MAX_SEATS, MIN_SEATS, RummyState
from .strong import StrongPlayer


class RummyDefinition(GameDefinition):
    key = "rummy"
    name = "Classic Rummy"
    summary = "Melds and lay-offs on anyone's melds: the first to the target score wins."
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    deck = DECK
    options = (
        Option("target", "Target score", "int", DEFAULT_TARGET, LOWEST_TARGET, HIGHEST_TARGET,
               help="The game ends after the hand in which a player reaches it."),
        Option("rummy_bonus", "Rummy bonus", "bool", True,
               help="Going out in one turn, with no earlier meld or lay-off, scores double."),
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
    measured = {STRONG: Measured(500, share=0.528, against=NORMAL),
                NORMAL: Measured(1000, share=0.785, against=EASY),
                EASY: Measured(1000, share=0.994, against="random discards")}
    baseline_label = "random discards"
    action_types = actions.ACTION_TYPES

    def baseline_bot(self, rng: random.Random) -> RandomDiscardPlayer:
        return RandomDiscardPlayer(rng)

    def new_state(self, names: Sequence[str], *, options: Mapping[str, Any] | None = None,
                  seed: int | str | None = None, stacked_deck: Sequence[Card] | None = None) -> RummyState:
        self.check_seats(names)
        values = self.validate_options(options)
        return RummyState.new(self, names, target=values["target"], rummy_bonus=values["rummy_bonus"], seed=seed,
                              stacked_deck=stacked_deck)

    def from_dict(self, data: Mapping[str, Any]) -> RummyState:
        if not isinstance(data, Mapping):
            raise ValueError("a saved game is a mapping")
        return RummyState.from_dict(self, data)

    action_from_dict = staticmethod(actions.action_from_dict)
    action_to_dict = staticmethod(actions.action_to_dict)


DEFINITION = RummyDefinition()
