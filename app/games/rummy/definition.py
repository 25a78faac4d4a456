"""The definition of Classic Rummy that the registry holds (the protocol's ``GameDefinition``)."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from app.core.cards import Card
from app.core.protocol import GameDefinition, Option, Stat

from .actions import action_from_dict, action_to_dict
from .bot import ComputerPlayer, RandomDiscardPlayer
from .cards import DECK
from .game import DEFAULT_TARGET, HIGHEST_TARGET, LOWEST_TARGET, MAX_SEATS, MIN_SEATS, RummyGame, new_game


class ClassicRummy(GameDefinition):
    key = "rummy"
    name = "Classic Rummy"
    summary = "Melds and lay-offs on anyone's melds, first to the target score wins; 2 to 6 players."
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    deck = DECK
    options = (
        Option("target", "Target score", "int", DEFAULT_TARGET, LOWEST_TARGET, HIGHEST_TARGET,
               help="The game ends after the hand in which a player reaches it (C5.3)."),
        Option("rummy_bonus", "Rummy bonus", "bool", True,
               help="Going out in one turn, with no earlier meld or lay-off, scores double (C5.2)."),
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
    baseline_label = "random discards"
    table_actions = frozenset({"deal"})  # between hands, anyone at the table

    def baseline_bot(self, rng: random.Random) -> RandomDiscardPlayer:
        return RandomDiscardPlayer(rng)

    def new_state(self, names: Sequence[str], *, options: Mapping[str, Any] | None = None,
                  seed: int | str | None = None, stacked_deck: Sequence[Card] | None = None) -> RummyGame:
        self.check_seats(names)
        values = self.validate_options(options)
        return new_game(names, target=values["target"], rummy_bonus=values["rummy_bonus"], seed=seed,
                        stacked_deck=stacked_deck)

    def from_dict(self, data: Mapping[str, Any]) -> RummyGame:
        if not isinstance(data, Mapping):
            raise ValueError("a saved game is a mapping")
        return RummyGame.from_dict(data)

    def action_from_dict(self, data: Mapping[str, Any]):
        return action_from_dict(data)

    def action_to_dict(self, action) -> dict:
        return action_to_dict(action)


CLASSIC_RUMMY = ClassicRummy()
RummyGame.definition = CLASSIC_RUMMY
