"""The computer player (P7), apart from the rules: ``PointsBot.choose(state, seat)`` returns the
action the seat takes now, always the same for the same state.

P7.1: it judges a hand by the evaluator's figure (the fewest points it can count, P5.4). It takes
the open pile's top card when keeping it (and discarding the best other card) makes that figure
lower than now; it declares as soon as 13 of its cards make a valid declaration (the evaluator
finds the groups, so it never declares wrongly); otherwise it discards the card whose removal
leaves the fewest points, the higher card on a tie.

P7.2: a hand is *hopeless* when no two of its cards are of one suit and near enough to be part
of one pure sequence (so it holds no pure sequence either). ``drop_hopeless=True`` drops such a
hand at the first turn (20 points). Measured (``bench/points_bot.py --hopeless``): 82 hopeless
hands in 400,000 two-player deals, and playing them out against the computer player lost 11.5
points a deal on average against 20 for the drop (against the random discarder it won 73), so
the computer player plays them out: ``drop_hopeless`` is False by default.

``RandomDiscardBot`` is the baseline it is measured against (P7.3): it draws from the closed deck,
declares when it can, and otherwise discards a card at random.
"""

from __future__ import annotations

import random

from app.core.cards import Card

from .actions import CLOSED, OPEN, Action, Declare, Discard, Draw, Drop
from .cards import ACE_HIGH, card_points
from .evaluator import HandContext
from .state import DISCARD, DRAW, PointsState


_CONTEXTS: dict[tuple[str, tuple[str, ...]], HandContext] = {}
_CONTEXTS_KEPT = 64


def _context(cards: list[Card], wild_rank: str) -> HandContext:
    """The evaluator's search over these cards, kept for a while: the draw decision's 14 cards
    are the discard decision's when the open card is taken. (A cache: the answers are the same.)"""
    key = (wild_rank, tuple(sorted(card.id for card in cards)))
    context = _CONTEXTS.get(key)
    if context is None:
        if len(_CONTEXTS) >= _CONTEXTS_KEPT:
            _CONTEXTS.clear()
        context = _CONTEXTS[key] = HandContext(cards, wild_rank)
    return context


def hopeless(hand: list[Card], wild_rank: str) -> bool:
    """P7.2: no two cards of one pure sequence (same suit, ranks at most two apart, the ace low or
    high); a card of the wild rank counts as itself here, since it may stand in its own place."""
    places: dict[str, set[int]] = {}
    for card in hand:
        if card.is_joker:
            continue
        held = places.setdefault(card.suit, set())
        held.add(card.order)
        if card.order == 0:
            held.add(ACE_HIGH)
    for held in places.values():
        ordered = sorted(held)
        for low, high in zip(ordered, ordered[1:]):
            if high - low <= 2 and not (low == 0 and high == ACE_HIGH):
                return False
    return True


def _declaration(context: HandContext, hand: list[Card], values: dict[Card, int],
                 finish: Card | None = None) -> Declare | None:
    """A valid declaration from these 14 cards, the highest possible finish card first; only with
    ``finish`` if the seat's own groups leave that card out (a seat a person arranged before the
    computer player took it over), the one finish card the rules let it declare with then (P5.1)."""
    for card in sorted(hand, key=lambda c: (-c.points, -c.sort_key)):
        if values[card] == 0 and (finish is None or card is finish):
            evaluation = context.evaluate_without(card)
            if evaluation.complete:
                return Declare((card.id,), tuple(tuple(c.id for c in cards) for _kind, cards in evaluation.groups))
    return None


class PointsBot:
    """The computer player of P7 (deterministic)."""

    def __init__(self, *, drop_hopeless: bool = False):
        self.drop_hopeless = drop_hopeless

    def choose(self, state: PointsState, seat: int) -> Action:
        hand = state.hands[seat]
        wild = state.wild_rank
        if state.phase == DRAW:
            if self.drop_hopeless and not state.has_drawn[seat] and hopeless(hand, wild):
                return Drop()
            if state.open_card_takeable():
                top = state.open_pile[-1]
                with_top = _context(hand + [top], wild)
                now = with_top.points_without(top)
                if min(with_top.points_without(card) for card in hand) < now:
                    return Draw(OPEN)
            if state.can_draw_closed():
                return Draw(CLOSED)
            return Draw(OPEN) if state.open_card_takeable() else Drop()
        if state.phase != DISCARD:
            raise ValueError("the computer player is asked to move when no one is to move")
        context = _context(hand, wild)
        values = {card: context.points_without(card) for card in hand}
        declaration = _declaration(context, hand, values, state.finish_card(seat))
        if declaration is not None:
            return declaration
        choices = [card for card in hand if card is not state.taken_open]
        best = min(choices, key=lambda c: (values[c], -card_points(c, wild), -c.order, -c.sort_key))
        return Discard((best.id,))


class RandomDiscardBot:
    """The baseline of P7.3: closed deck always, a valid declaration when it has one, else a
    random discard drawn from ``rng``."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: PointsState, seat: int) -> Action:
        hand = state.hands[seat]
        if state.phase == DRAW:
            if state.can_draw_closed():
                return Draw(CLOSED)
            return Draw(OPEN) if state.open_card_takeable() else Drop()
        context = HandContext(hand, state.wild_rank)
        values = {card: context.points_without(card) for card in hand}
        declaration = _declaration(context, hand, values, state.finish_card(seat))
        if declaration is not None:
            return declaration
        choices = [card for card in hand if card is not state.taken_open]
        return Discard((self.rng.choice(choices).id,))
