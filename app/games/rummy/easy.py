"""Classic Rummy's easy computer player: ``EasyPlayer.choose(game, seat)``.

It draws, melds and lays off as the rule book's player does (C6.1, C6.2), but discards
carelessly: its highest card less what its pairs are worth, never keeping half a run, with no
thought for which cards may still come, for what the next player could use, or for the hand's
end; and one discard in ``CARELESS`` is any card the rules allow. It reads the game only through
``view(seat)`` (``knowledge.read_view``) and chooses among ``legal(seat)``; its careless discards
come from a generator seeded from what it sees, so it plays the same in the same position.
"""

from __future__ import annotations

import random

from .actions import Action, DiscardCard, DrawCard
from .bot import Weights, choose_discard, draw_source, next_play
from .cards import BIT, CARDS, numbers
from .knowledge import as_game, read_view
from .state import DRAW, RummyState

CARELESS = 20  # one discard in twenty is any card
# The rule book's player's weights with all but the pairs and the points left out.
CARELESS_WEIGHTS = Weights(near=0, gap=0, feed=0, danger=0, late=1, live="none")


class EasyPlayer:
    """The easy computer player (see the module's docstring)."""

    def __init__(self, careless: int = CARELESS):
        self.careless = careless

    def choose(self, game: RummyState, seat: int) -> Action:
        moves = game.legal(seat)
        knowledge = read_view(game.view(seat), seat)
        table = as_game(knowledge.deal(random.Random(0)))  # (the hidden cards play no part below)
        if knowledge.phase == DRAW:
            sources = {dict(move.params)["source"] for move in moves if move.action == "draw"}
            if not sources:
                raise ValueError("it is not this seat's turn")
            source = draw_source(table, seat)
            return DrawCard(source if source in sources else next(iter(sorted(sources))))
        play = next_play(table, seat)
        if play is not None:
            return play
        rng = random.Random(knowledge.seed)
        if rng.randrange(self.careless) == 0:
            allowed = knowledge.hand & ~BIT[knowledge.taken] if knowledge.taken is not None else knowledge.hand
            return DiscardCard(CARDS[rng.choice(list(numbers(allowed)))])
        return DiscardCard(CARDS[choose_discard(table, seat, CARELESS_WEIGHTS)])

    def __repr__(self) -> str:
        return "EasyPlayer()"
