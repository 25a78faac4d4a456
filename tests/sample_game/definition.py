"""The definition of High card that the registry holds: seats, the limit, the deck, the
statistics, the computer player, and where its templates are."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.core.cards import Card
from app.core.protocol import GameDefinition, Option, OptionError, Said, Stat, said

from . import actions
from .bot import Cautious, RandomChoice
from .state import DECK, HighCardState


class HighCardDefinition(GameDefinition):
    key = "highcard"
    name = "High card"
    summary = "Draw or pass: the highest hand that is not bust wins."
    min_seats = 2
    max_seats = 4
    deck = DECK
    options = (
        Option("limit", "Bust over", "int", 15, 10, 30, help="A hand worth more than this is bust (H4)."),
    )
    statistics = (
        Stat("games_played", "Games played"),
        Stat("games_won", "Games won"),
        Stat("busts", "Busts"),
        Stat("cards_drawn", "Cards drawn"),
        Stat("best_hand", "Best hand", "max"),
    )
    bot = Cautious()
    action_types = actions.ACTION_TYPES
    templates_folder = "templates"  # (beside this module: the game brings its own board)

    def baseline_bot(self, rng: random.Random) -> RandomChoice:
        return RandomChoice(rng)

    def deck_preview(self, cards: Sequence[Card]) -> list[tuple[Said, list[Card]]]:
        return [(said("Dealt, a card a seat"), list(cards[:4])), (said("Then the stock"), list(cards[4:10]))]

    def new_state(self, names: Sequence[str], *, options: Mapping[str, Any] | None = None,
                  seed: int | str | None = None, stacked_deck: Sequence[Card] | None = None) -> HighCardState:
        names = list(names)
        if not all(isinstance(name, str) and name.strip() for name in names):
            raise OptionError("Every seat needs a name.")
        self.check_seats(names)
        values = self.validate_options(options)
        if seed is None and stacked_deck is None:
            raise ValueError("a shuffled game needs a seed")
        return HighCardState.new(self, names, values, 0 if seed is None else seed, stacked_deck)

    def from_dict(self, data: Mapping[str, Any]) -> HighCardState:
        return HighCardState.from_dict(self, data)

    action_from_dict = staticmethod(actions.action_from_dict)
    action_to_dict = staticmethod(actions.action_to_dict)


DEFINITION = HighCardDefinition()
