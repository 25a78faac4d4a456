"""Mason Rummy's easy computer player: ``EasyBot.choose(game, seat)``.

It draws and lays down as the rule book's player does (R8.1, R8.2), but discards carelessly: its
highest card, keeping pairs but never half a run, thinking nothing of the round's end, and one
discard in ``CARELESS`` is any card at all. It reads the game only through ``view(seat)`` and
chooses among ``legal(seat)``; its careless discards come from a generator seeded from what it
sees, so it plays the same in the same position.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .actions import DISCARD_PILE, STOCK, Action, Discard, Draw, LayDown
from .bot import _would_form_set, next_computer_play
from .cards import Card, parse_card
from .melds import CardSet, fitting_cards
from .players import Hand
from .state import MasonState

CARELESS = 5  # one discard in five is any card
PAIR_KEEP = 12  # what a card of the same value in hand is worth keeping, in points


def hand_of(view: Mapping[str, Any], seat: int) -> Hand:
    """The seat's hand and sets, as its view shows them."""
    sets = [CardSet.from_dict(data) for data in view["players"][seat]["sets"]]
    return Hand((parse_card(code) for code in view["hand"] or ()), sets)


def view_seed(view: Mapping[str, Any]) -> str:
    """A seed for the seat's own generator: what it sees now (its hand, the piles, the scores)."""
    return "/".join([str(view["round"]), ",".join(view["hand"] or ()), str(view["discard_top"]),
                     str(view["discard_size"]), str(view["stock_size"]),
                     ",".join(f"{p['hand_size']}:{p['score']}" for p in view["players"])])


def draw_source(hand: Hand, top: Card | None, sources: set[str]) -> str:
    """R8.1: the discard pile's top if it makes a new meld or run, or fits an own set."""
    if top is not None and DISCARD_PILE in sources and (
            _would_form_set(top, hand.cards) or (hand.laid_down and top in fitting_cards(hand.laid_down))):
        return DISCARD_PILE
    return STOCK if STOCK in sources else DISCARD_PILE


class EasyBot:
    """The easy computer player (see the module's docstring)."""

    def __init__(self, careless: int = CARELESS):
        self.careless = careless

    def choose(self, game: MasonState, seat: int) -> Action:
        moves = {move.action for move in game.legal(seat)}
        view = game.view(seat)
        hand = hand_of(view, seat)
        if "draw_stock" in moves or "draw_discard" in moves:
            sources = {STOCK} if "draw_stock" in moves else set()
            if "draw_discard" in moves:
                sources.add(DISCARD_PILE)
            top = parse_card(view["discard_top"]) if view["discard_top"] else None
            return Draw(draw_source(hand, top, sources))
        if "discard" not in moves:
            raise ValueError("it is not this seat's turn")
        selection = next_computer_play(hand)
        if selection is not None:
            return LayDown(selection)
        rng = random.Random(view_seed(view))
        if rng.randrange(self.careless) == 0:
            return Discard(rng.choice(hand.cards))
        return Discard(careless_discard(hand.cards))

    def __repr__(self) -> str:
        return "EasyBot()"


def careless_discard(cards: list[Card]) -> Card:
    """The highest card less what its pairs are worth (the later card in hand order on a tie)."""
    counts = [0] * 13
    for card in cards:
        counts[card.order] += 1
    best, best_score = cards[-1], None
    for card in cards:
        score = card.points - PAIR_KEEP * (counts[card.order] - 1)
        if best_score is None or score >= best_score:
            best, best_score = card, score
    return best


EASY = EasyBot()
