"""The definition of Seahaven Towers that the registry holds (the protocol's ``GameDefinition``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from app.core.cards import Card
from app.core.guides import Guide
from app.core.protocol import (
    MAX, MIN, PERCENT, RATIO, SECONDS, STREAK, GameDefinition, NeedsAnswers, Option, OptionError, Said, Stat, said,
)

from . import actions
from .guide import GUIDE
from .analysis import ANALYST, question_for, start_layout
from .bot import RandomBot, SolverBot
from .deals import MAX_DEAL, deal_cards, deal_number_from_seed, first_winnable_deal
from .rules import CELLS, DECK
from .state import SeahavenState

CLASSIC_CELLS_NEEDED = 3  # S2.4 deals into cells 2 and 3 (S7.1)

# Deal only winnable games walks this many deal numbers from the chosen one at most (the chance
# that so many deals in a row cannot be won is far below one in a billion); it asks for the
# verdicts of ASKED_AHEAD of them at a time.
WALK = 24
ASKED_AHEAD = 4


class SeahavenDefinition(GameDefinition):
    key = "seahaven"
    name = "Seahaven Towers"
    summary = "Solitaire: free four towers of cards, building down by suit, with four cells."
    showcase = ("KS", "QS", "JS", "TS")  # a column built down by suit (S3.3)
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
        Option("cells", "Cells", "int", CELLS, 1, CELLS,
               help="Play with fewer cells: 3, 2 or even 1 (the classic deal needs 3). The solver's help, "
                    "hints and winnable deals, knows the rule book's four only.", house=True, rule="S7.1"),
        Option("kings_only", "Only kings fill an empty column", "bool", True,
               help="By the rule book an empty column takes only a king; or any card.", house=True, rule="S7.2"),
    )
    statistics = (
        Stat("played", "Games played"),
        Stat("won", "Games won"),
        Stat("win_rate", "Win rate", RATIO, of=("won", "played"), unit=PERCENT),
        Stat("streak", "Current streak", STREAK),
        Stat("best_streak", "Best streak", MAX, of="streak"),
        Stat("best_time", "Best time", MIN, unit=SECONDS, timed=True),
        Stat("fewest_moves", "Fewest moves to win", MIN),
        # each deal's best, per name (SeatResult.item: "612-classic")
        Stat("deal_played", "Played", per_item=True),
        Stat("deal_won", "Won", per_item=True),
        Stat("deal_fewest_moves", "Fewest moves", MIN, per_item=True),
        Stat("deal_best_time", "Best time", MIN, unit=SECONDS, timed=True, per_item=True),
        Stat("deal_most_home", "Most cards home", MAX, per_item=True),
    )
    bot = SolverBot()
    analyst = ANALYST
    preferences = (
        Option("auto_home", "Send cards home by themselves", "bool", False,
               help="After each of your moves, every card that can go to its foundation goes there."),
    )
    action_types = actions.ACTION_TYPES
    guide: ClassVar[Guide] = GUIDE  # its guided first game ("Learn by playing")

    def baseline_bot(self, rng: random.Random) -> RandomBot:
        return RandomBot(rng)

    def validate_options(self, raw: Mapping[str, Any] | None = None) -> dict[str, Any]:
        values = super().validate_options(raw)
        if values["classic"] and values["cells"] < CLASSIC_CELLS_NEEDED:  # S2.4 deals into cells 2 and 3
            raise OptionError(f"The classic deal puts two cards into cells 2 and 3: it needs {CLASSIC_CELLS_NEEDED} "
                              f"cells or more.")
        if values["winnable_only"] and self.house_rules(values):  # S7: the solver knows the rule book's game only
            raise OptionError("Deal only winnable games works with the rule book's rules: four cells, only kings "
                              "in an empty column.")
        return values

    def new_state(self, names: Sequence[str], *, options: Mapping[str, Any] | None = None,
                  seed: int | str | None = None, stacked_deck: Sequence[Card] | None = None,
                  answers: Mapping[str, Mapping[str, Any]] | None = None) -> SeahavenState:
        """``answers``: the solver's kept answers by question key, for deal only winnable games
        (``NeedsAnswers`` for the deals whose verdicts it lacks); None: it asks the solver
        itself (the terminal, the simulator)."""
        self.check_seats(names)
        values = self.validate_options(options)
        classic, winnable_only = values["classic"], values["winnable_only"]
        cells, kings_only = values["cells"], values["kings_only"]
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
                deal = first_winnable_deal(deal, classic) if answers is None else \
                    first_kept_winnable_deal(deal, classic, answers)
            cards = deal_cards(deal)
        return SeahavenState(self, names[0], cards, classic=classic, deal=deal, seed=seed,
                             winnable_only=winnable_only, cells=cells, kings_only=kings_only)

    item_noun = "deal"

    def describe_item(self, item: str) -> Said:
        """``612-classic`` -> ``Deal 612, classic deal``."""
        number, _, kind = item.partition("-")
        if number.isdigit() and kind == "open":
            return said("Deal {number}, open deal", number=number)
        if number.isdigit() and kind == "classic":
            return said("Deal {number}, classic deal", number=number)
        return super().describe_item(item)

    def from_dict(self, data: Mapping[str, Any]) -> SeahavenState:
        return SeahavenState.from_dict(self, data)

    action_from_dict = staticmethod(actions.action_from_dict)
    action_to_dict = staticmethod(actions.action_to_dict)


def first_kept_winnable_deal(number: int, classic: bool, answers: Mapping[str, Mapping[str, Any]]) -> int:
    """S5.2 from kept verdicts: the first deal number from ``number`` on whose deal can be won,
    walking past the deals ``answers`` say cannot be won; ``NeedsAnswers`` with the next few
    deals' questions as soon as one verdict is not among them."""
    wanted = []
    for step in range(WALK):
        deal = (number - 1 + step) % MAX_DEAL + 1
        dealt = deal_cards(deal)
        question = question_for(start_layout(dealt, classic), dealt, classic, line=True)
        answer = answers.get(question.key)
        if answer is None:
            wanted.append(question)
            if len(wanted) == ASKED_AHEAD:
                break
        elif not wanted and answer.get("winnable") is True:
            return deal  # (an answer the solver could not work out within its budget is no proof)
    if wanted:
        raise NeedsAnswers(wanted, f"the solver's verdicts of deals from {number} on are needed")
    raise OptionError(f"None of the {WALK} deals from {number} on can be won: choose another deal number.")


DEFINITION = SeahavenDefinition()
