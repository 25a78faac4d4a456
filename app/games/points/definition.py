"""The Points Rummy definition the registry holds: seats, options, statistics, decks, states."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from app.core.cards import Card, DeckSpec
from app.core.decks import DeckError, parse_deck
from app.core.guides import Guide
from app.core.protocol import EASY, NORMAL, STRONG, TAKE_BACKS, GameDefinition, Measured, Option, Stat

from . import actions
from .guide import GUIDE
from .bot import PointsBot, RandomDiscardBot
from .cards import ONE_DECK, TWO_DECKS, deck_for_seats
from .state import DEAL_DEALT, FIRST_DROP, MIDDLE_DROP, MOST_POINTS, WRONG_DECLARATION, PointsState
from .strengths import Beginner, Strategist

MAX_DEALS = 10  # P6.1


class PointsDefinition(GameDefinition):
    key = "points"
    name = "Points Rummy"
    round_lines = {DEAL_DEALT: "Deal {deal} of {deals}"}
    summary = "13-card Indian rummy with jokers: sequences and sets, the first valid declaration wins the deal."
    showcase = ("5D", "6D", "7D", "JK")  # a sequence with the printed joker (P3.2)
    min_seats = 2
    max_seats = 6
    deck = ONE_DECK
    options = (
        Option("deals", "Number of deals", "int", 1, 1, MAX_DEALS,
               help="Points rummy settles after each deal; play 1 to 10 deals and add them up."),
        Option("first_drop", "First drop costs", "int", FIRST_DROP, 0, 80,
               help="The points a player pays for dropping before their first draw of the deal.",
               house=True, rule="P8.1"),
        Option("middle_drop", "Middle drop costs", "int", MIDDLE_DROP, 0, 80,
               help="The points a player pays for dropping after drawing.", house=True, rule="P8.2"),
        Option("most_points", "A loser pays at most", "int", MOST_POINTS, 20, 160,
               help="The most points a loser's hand counts in one deal.", house=True, rule="P8.3"),
        Option("wrong_declaration", "A wrong declaration costs", "int", WRONG_DECLARATION, 0, 160,
               help="The points a player pays for declaring with groups that are not a valid declaration.",
               house=True, rule="P8.4"),
        Option("joker_pickup", "Jokers may be taken from the open pile", "bool", False,
               help="By the rule book a joker on the open pile stays there (but the pile's first card).",
               house=True, rule="P8.5"),
        TAKE_BACKS,
    )
    statistics = (Stat("deals_played", "Deals played"), Stat("deals_won", "Deals won"),
                  Stat("net_points", "Net points"), Stat("best_deal", "Best deal", combine="max"))  # P6.2
    bot = PointsBot()
    other_bots = {EASY: Beginner(), STRONG: Strategist()}
    # ``python -m app.simulate --game points --games 1000 --ladder --seed 1``: each player against
    # the next one down, 500 deals each played in both seat orders; the Wilson 95% intervals:
    # strong [58.8%, 64.9%], normal [82.4%, 86.9%], easy [85.4%, 89.5%] (docs/games/points.md)
    measured = {STRONG: Measured(1000, share=0.619, against=NORMAL),
                NORMAL: Measured(1000, share=0.848, against=EASY),
                EASY: Measured(1000, share=0.876, against="random discards")}
    baseline_label = "random discards"
    action_types = actions.ACTION_TYPES
    guide: ClassVar[Guide] = GUIDE  # its guided first game ("Learn by playing")

    def baseline_bot(self, rng: random.Random) -> RandomDiscardBot:
        return RandomDiscardBot(rng)

    def deck_for(self, seats: int) -> DeckSpec:
        return deck_for_seats(seats)  # P1.1

    def parse_deck(self, text: str, seats: int | None = None) -> list[Card]:
        """A stacked deck: 53 codes for two players, 106 for three to six (P1.1). Without a seat
        count, the number of codes picks the deck."""
        count = len(text.split())
        if seats is None:
            deck = ONE_DECK if count <= (ONE_DECK.size + TWO_DECKS.size) // 2 else TWO_DECKS
        else:
            deck = deck_for_seats(seats)
        try:
            return parse_deck(text, deck)
        except DeckError as error:
            if seats is None:
                which = ("a deck for two players (one deck and a joker: 53 cards)" if deck is ONE_DECK else
                         "a deck for three to six players (two decks and two jokers: 106 cards)")
                raise DeckError(f"{error} (read as {which})") from None
            players = f"{seats} players use " + ("one deck and a joker (53 cards)" if deck is ONE_DECK else
                                                 "two decks and two jokers (106 cards)")
            raise DeckError(f"{players}: {error}") from None

    def new_state(self, names: Sequence[str], *, options: Mapping[str, Any] | None = None,
                  seed: int | str | None = None, stacked_deck: Sequence[Card] | None = None) -> PointsState:
        names = list(names)
        self.check_seats(names)
        values = self.validate_options(options)
        deck = deck_for_seats(len(names))
        if stacked_deck is not None:
            stacked = list(stacked_deck)
            if len(stacked) != deck.size or set(stacked) != set(deck.cards):
                raise ValueError(f"a stacked deck for {len(names)} players holds the {deck.size} cards "
                                 f"of its deck once each")
        elif seed is None:
            raise ValueError("a shuffled game needs a seed")
        else:
            stacked = None
        state = PointsState(self, names, deals=values["deals"], seed=seed, stacked=stacked, rules=values)
        state.start()
        return state

    def from_dict(self, data: Mapping[str, Any]) -> PointsState:
        return PointsState.from_dict(self, data)

    action_from_dict = staticmethod(actions.action_from_dict)
    action_to_dict = staticmethod(actions.action_to_dict)


DEFINITION = PointsDefinition()
