"""Classic Rummy's strong computer player: ``StrongPlayer.choose(game, seat)``.

It reads the game only through ``view(seat)`` (``knowledge.read_view``) and chooses among
``legal(seat)``, so it never sees a hidden card (C7.1). It draws, melds and lays off as the rule
book's player does (C6.1, C6.2), and weighs its discard as C6.3 does, less what the card is worth
to the next player: the share of the next player's possible hands (``Knowledge.deal``: the cards
the seat cannot place, laid at random where they may lie, from a generator seeded by the view)
with which that card makes a new meld, so that the next player would take it (C6.1) and meld it
at once. A card all of whose partners are in sight feeds nobody.

Why no more than that: played out to the end of the hand over hundreds of deals of the unseen
cards, C6's own draw and discard are the best of the choices at hand in all but a few of the
positions tried (a choice made once, every seat playing C6 afterwards); only knowing what the
next player holds would change much, and a seat cannot know it.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .actions import Action, DiscardCard, DrawCard
from .bot import discard_scores, draw_source, makes_meld, next_play
from .cards import CARDS
from .knowledge import Knowledge, as_game, read_view
from .state import DRAW, RummyState

HANDS = 100  # the next player's possible hands weighed
FEED = 20  # what making the next player a meld costs, in points of C6.3's discard score


class StrongPlayer:
    """The strong computer player (see the module's docstring)."""

    def __init__(self, hands: int = HANDS, feed: int = FEED):
        self.hands = hands
        self.feed = feed

    def choose(self, game: RummyState, seat: int) -> Action:
        moves = game.legal(seat)
        knowledge = read_view(game.view(seat), seat)
        table = as_game(knowledge.deal(random.Random(0)))  # (the hidden cards play no part but in ``feeds``)
        if knowledge.phase == DRAW:
            sources = {dict(move.params)["source"] for move in moves if move.action == "draw"}
            if not sources:
                raise ValueError("it is not this seat's turn")
            source = draw_source(table, seat)
            return DrawCard(source if source in sources else next(iter(sorted(sources))))
        play = next_play(table, seat)
        if play is not None:
            return play
        feeds = self.feeds(knowledge)
        _score, card = max((score - self.feed * feeds(card), card) for score, card in discard_scores(table, seat))
        return DiscardCard(CARDS[card])

    def feeds(self, knowledge: Knowledge) -> Callable[[int], float]:
        """The share of the next player's possible hands with which a card makes a new meld."""
        following = (knowledge.seat + 1) % knowledge.seats
        rng = random.Random(knowledge.seed)
        hands = [knowledge.deal(rng).players[following].hand.mask for _ in range(self.hands)]

        def share(card: int) -> float:
            return sum(1 for hand in hands if makes_meld(card, hand)) / len(hands)

        return share

    def __repr__(self) -> str:
        return "StrongPlayer()"
