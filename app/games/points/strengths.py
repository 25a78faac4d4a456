"""Points Rummy's computer players beside the rule book's (P7, ``bot.PointsBot``, the normal
strength): ``Beginner`` (easy) and ``Planner``-driven ``Strategist`` (strong). Both read only
what their seat sees (``view(seat)``, and which cards its seat has seen: every zone visible to
it) and choose among ``legal(seat)``; both are deterministic for a given state (the easy one's
chance comes from a generator seeded from what its seat sees)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence

from app.core.cards import Card
from app.core.protocol import Move

from .actions import CLOSED, OPEN, Action, Discard, Draw, Drop
from .bot import _context, _declaration
from .cards import card_points
from .planner import Planner, live_counts
from .state import DISCARD, DRAW, PointsState


class Seen:
    """What a seat knows when it moves: its view's hand, the wild rank, the phase, the open
    pile's top (and whether it may be taken), the card it took from the open pile this turn, its
    legal moves, and every card it has seen (the zones it may see: the open pile, the indicator,
    its hand, cards others took from the open pile) and so the cards it has not."""

    def __init__(self, state: PointsState, seat: int):
        view = state.view(seat)
        deck = state.deck
        self.seat = seat
        self.deck = deck
        self.hand = [deck.parse(card) for card in view["hand"] or []]
        self.wild_rank = view["wild_rank"]
        self.phase = view["phase"]
        self.open_top = deck.parse(view["open_top"]) if view["open_top"] else None
        self.open_takeable = view["open_top_takeable"]
        self.taken = deck.parse(view["taken_from_open"]) if view["taken_from_open"] else None
        self.moves: list[Move] = state.legal(seat)
        zones = [zone for zone in state.zones() if zone.visible(seat)]
        self.seen = [card for zone in zones for card in zone.cards]
        seen_ids = {card.id for card in self.seen}
        self.unseen = [card for card in deck.cards if card.id not in seen_ids]
        self.log_total = state.log_total
        self.deal = view["deal"]

    def may(self, action: str, source: str | None = None) -> bool:
        return any(move.action == action and (source is None or ("source", source) in move.params)
                   for move in self.moves)

    def draw_fallback(self) -> Action:
        """Closed deck, else the open card, else drop (P4.1, P4.3): what the seat can do."""
        if self.may("draw", CLOSED):
            return Draw(CLOSED)
        if self.may("draw", OPEN):
            return Draw(OPEN)
        return Drop()

    def rng(self, salt: str) -> random.Random:
        """A generator seeded from what the seat sees (its cards, the deal, the log's length), so
        the same state always plays the same."""
        text = f"{salt}/{self.deal}/{self.log_total}/{self.seat}/{' '.join(sorted(c.id for c in self.hand))}"
        return random.Random(hashlib.sha256(text.encode()).hexdigest())


def _check_turn(seen: Seen) -> None:
    if seen.phase not in (DRAW, DISCARD) or not any(move.action in ("draw", "discard") for move in seen.moves):
        raise ValueError(f"seat {seen.seat} is asked to move when it may not")


def _discard_order(cards: Sequence[Card], wild_rank: str) -> list[Card]:
    return sorted(cards, key=lambda c: (-card_points(c, wild_rank), -c.order, -c.sort_key))


class Beginner:
    """Easy: it draws from the closed deck only, declares when its 14 cards hold a valid
    declaration (the evaluator finds it, so never wrongly), and discards as the normal player does
    (the card whose removal leaves the fewest points) but one time in ``careless`` picks a card
    at random instead."""

    def __init__(self, careless: float = 0.5):
        self.careless = careless

    def choose(self, state: PointsState, seat: int) -> Action:
        seen = Seen(state, seat)
        _check_turn(seen)
        if seen.phase == DRAW:
            return seen.draw_fallback()
        hand, wild = seen.hand, seen.wild_rank
        context = _context(hand, wild)
        values = {card: context.points_without(card) for card in hand}
        declaration = _declaration(context, hand, values)
        if declaration is not None:
            return declaration
        choices = [card for card in hand if card is not seen.taken]
        rng = seen.rng("beginner")
        if rng.random() < self.careless:
            return Discard((rng.choice(choices).id,))
        best = min(choices, key=lambda c: (values[c], -card_points(c, wild), -c.order, -c.sort_key))
        return Discard((best.id,))


class Strategist:
    """Strong: it plays to declare first (P5.2). A hand is judged by ``Planner.cards_to_go``: the
    fewest cards still to draw before 13 of its cards make a valid declaration (P5.1), counting
    a pure sequence's gap only while its card is unseen. It takes the open card when that brings
    it closer (P4.1), else draws from the closed deck; it discards the card whose loss keeps it
    closest, and of those the one that leaves the most *outs* (unseen cards that would bring it
    closer if drawn next: ``Planner.outs_without``), then the one of most points (a lost deal
    costs less, P5.4); it declares as soon as it can, never wrongly (the evaluator finds the
    groups), and never drops. The outs are worked out within a budget of search positions, in
    the order of those points: a move's CPU stays bounded."""

    def choose(self, state: PointsState, seat: int) -> Action:
        seen = Seen(state, seat)
        _check_turn(seen)
        hand, wild = seen.hand, seen.wild_rank
        planner = Planner(wild, live_counts(seen.deck.cards, seen.seen))
        if seen.phase == DRAW:
            if seen.open_takeable and seen.open_top is not None and seen.may("draw", OPEN):
                if planner.cards_to_go(hand + [seen.open_top]) < planner.cards_to_go(hand):
                    return Draw(OPEN)
            return seen.draw_fallback()
        context = _context(hand, wild)
        values = {card: context.points_without(card) for card in hand}
        declaration = _declaration(context, hand, values)
        if declaration is not None:
            return declaration
        to_go = planner.cards_to_go_without(hand)
        choices = [card for card in hand if card is not seen.taken]
        fewest = min(to_go[card] for card in choices)
        ordered = _discard_order([card for card in choices if to_go[card] == fewest], wild)
        if len(ordered) > 1:
            outs = planner.outs_without(hand, ordered, seen.unseen, budget=self.budget)
            ordered.sort(key=lambda card: -outs[card])  # stable: the most points first among equals
        return Discard((ordered[0].id,))

    budget = 30_000  # positions the outs' searches may hold: a move's CPU stays bounded


__all__ = ["Beginner", "Seen", "Strategist"]
