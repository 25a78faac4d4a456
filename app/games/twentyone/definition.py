"""The definition of 21 that the registry holds: seats, options, deck, statistics, bots."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from app.core.cards import Card as CoreCard
from app.core.guides import Guide
from app.core.protocol import (
    EASY, NORMAL, STRONG, TAKE_BACKS, GameDefinition, Measured, Option, OptionError, Said, Stat, said,
)

from . import actions
from .guide import GUIDE
from .bot import CardCounter, DealerRule, Hopeful, RandomChoice
from .cards import DECK
from .state import DEALER_TIES, LOST, PUSH, ROUND_DEALT, WON, TwentyOneState
from .table import DEALER_STANDS_ON

RETURNS = {WON: 1, LOST: -1}  # a round won, lost; a tie returns 0 (T3.4)


class TwentyOneDefinition(GameDefinition):
    key = "twentyone"
    name = "21 against the dealer"
    round_lines = {ROUND_DEALT: "Round {round}"}
    summary = "Hit or stay: come closer to 21 than the dealer without going over."
    showcase = ("7D", "4C", "KH")  # 21 (T1.2)
    score_unit = ("round won", "rounds won")
    min_seats = 1
    max_seats = 5  # T7.1
    deck = DECK
    deck_one_code_per_line = True  # T2.1
    options = (
        Option("rounds", "Rounds (0: until the table is ended)", "int", 5, 0, 50,
               help="The game ends after this many rounds; between rounds anyone may also end the table."),
        Option("aces", "Aces count", "choice", "one", choices=(("one", "1 always"), ("eleven", "1 or 11")),
               help="By the rule book an ace is always 1; or it counts 11 when that does not take the hand over "
                    "21, and 21 on the deal wins at once.", house=True, rule="T8.1"),
        Option("dealer_stands_on", "The dealer stands on", "int", DEALER_STANDS_ON, 15, 19,
               help="The dealer takes cards while below this value (17: the dealer hits 16 or less).",
               house=True, rule="T8.2"),
        Option("dealer_hits_soft_17", "The dealer hits a soft 17", "bool", False,
               help="Only where aces count 1 or 11: the dealer takes a card on 17 counting an ace as 11.",
               house=True, rule="T8.3"),
        Option("five_card_charlie", "Five cards win", "bool", False,
               help="A player holding five cards without going over wins the round at once.",
               house=True, rule="T8.4"),
        Option("ties", "Ties", "choice", PUSH, choices=((PUSH, "Nobody wins"), (DEALER_TIES, "The dealer wins")),
               help="What an equal value against the dealer is.", house=True, rule="T8.5"),
        TAKE_BACKS,
    )
    statistics = (  # T5.3
        Stat("rounds_won", "Rounds won"),
        Stat("rounds_lost", "Rounds lost"),
        Stat("rounds_tied", "Rounds tied"),
    )
    bot = DealerRule()
    other_bots = {EASY: Hopeful(), STRONG: CardCounter()}
    # (python -m app.simulate --game twentyone --games 20000 --ladder --seed 1: 100,000 rounds each)
    measured = {STRONG: Measured(20000, per_round=-0.045), NORMAL: Measured(20000, per_round=-0.087),
                EASY: Measured(20000, per_round=-0.138)}
    action_types = actions.ACTION_TYPES
    guide: ClassVar[Guide] = GUIDE  # its guided first game ("Learn by playing")

    def validate_options(self, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        values = super().validate_options(raw)
        if values["dealer_hits_soft_17"] and values["aces"] != "eleven":  # T8.3
            raise OptionError("The dealer hits a soft 17 only where aces count 1 or 11.")
        return values

    def deck_preview(self, cards: Sequence[CoreCard]) -> list[tuple[Said, list[CoreCard]]]:
        """How a stacked deck deals at a table of one player (T3.1): the player's two cards, the
        dealer's two (the second face down in play), then the cards the hits take."""
        cards = list(cards)
        return [(said("Player"), cards[0:4:2]), (said("Dealer"), cards[1:4:2]), (said("Then"), cards[4:10])]

    def baseline_bot(self, rng: random.Random) -> RandomChoice:
        return RandomChoice(rng)

    def round_returns(self, state: Any, seat: int) -> list[int]:
        """``seat``'s return in each round played to its end: +1 won (the dealer went bust or
        ended lower, or a 21 after a hit), -1 lost (bust, or the dealer ended higher), 0 a tie
        (T3.2-T3.4)."""
        if not isinstance(state, TwentyOneState):
            raise TypeError("not a game of 21")
        return [RETURNS.get(results[seat], 0) for results in state.history]

    def new_state(self, names: Sequence[str], *, options: Mapping[str, Any] | None = None,
                  seed: int | str | None = None, stacked_deck: Sequence[CoreCard] | None = None) -> TwentyOneState:
        names = list(names)
        if not all(isinstance(name, str) and name.strip() for name in names):
            raise OptionError("Every seat needs a name.")
        self.check_seats(names)
        values = self.validate_options(options)
        if seed is None:
            if stacked_deck is None:
                raise ValueError("a shuffled game needs a seed")
            seed = 0  # a stacked deck still needs a generator for refills (T3.6)
        return TwentyOneState.new(self, names, values, seed, stacked_deck)

    def from_dict(self, data: Mapping[str, Any]) -> TwentyOneState:
        return TwentyOneState.from_dict(self, data)

    action_from_dict = staticmethod(actions.action_from_dict)
    action_to_dict = staticmethod(actions.action_to_dict)


DEFINITION = TwentyOneDefinition()
