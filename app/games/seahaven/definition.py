"""The definition of Seahaven Towers that the registry holds (the protocol's ``GameDefinition``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from app.core.cards import Card
from app.core.protocol import GameDefinition, Option, Stat

from . import actions
from .bot import RandomBot, SolverBot
from .deals import MAX_DEAL, deal_cards, deal_number_from_seed, first_winnable_deal
from .rules import DECK
from .state import SeahavenState


class SeahavenDefinition(GameDefinition):
    key = "seahaven"
    name = "Seahaven Towers"
    summary = "Solitaire: free four towers of cards, building down by suit, with four cells."
    score_unit = ("card home", "cards home")
    min_seats = 1
    max_seats = 1
    deck = DECK
    options = (
        Option("classic", "Classic deal (two cards start in the cells)", "bool", False,
               help="The published game's deal: two cards start in the cells. The default, the open deal, "
                    "puts every card in the columns."),
        Option("deal", "Deal number (0: a random deal)", "int", 0, low=0, high=MAX_DEAL,
               help="The same number always deals the same cards: race a friend on it."),
        Option("winnable_only", "Deal only winnable games", "bool", False,
               help="The first deal from the chosen (or random) number on that can be won."),
    )
    statistics = (
        Stat("played", "Games played"),
        Stat("won", "Games won"),
        Stat("fewest_moves", "Fewest moves to win", "min"),
    )
    bot = SolverBot()
    action_types = actions.ACTION_TYPES

    def baseline_bot(self, rng: random.Random) -> RandomBot:
        return RandomBot(rng)

    def new_state(self, names: Sequence[str], *, options: Mapping[str, Any] | None = None,
                  seed: int | str | None = None, stacked_deck: Sequence[Card] | None = None) -> SeahavenState:
        self.check_seats(names)
        values = self.validate_options(options)
        classic, winnable_only = values["classic"], values["winnable_only"]
        if stacked_deck is not None:
            cards = list(stacked_deck)
            if len(cards) != DECK.size or set(cards) != set(DECK.cards):
                raise ValueError("a stacked deck must hold the 52 cards once each")
            deal = None
        else:
            deal = values["deal"]
            if not deal:
                if seed is None:
                    raise ValueError("a shuffled game needs a seed or a deal number")
                deal = deal_number_from_seed(seed)
            if winnable_only:
                deal = first_winnable_deal(deal, classic)
            cards = deal_cards(deal)
        return SeahavenState(self, names[0], cards, classic=classic, deal=deal, seed=seed,
                             winnable_only=winnable_only)

    def from_dict(self, data: Mapping[str, Any]) -> SeahavenState:
        return SeahavenState.from_dict(self, data)

    action_from_dict = staticmethod(actions.action_from_dict)
    action_to_dict = staticmethod(actions.action_to_dict)


DEFINITION = SeahavenDefinition()
