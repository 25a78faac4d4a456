"""Melds, runs and the one lay-down judge (R6).

``judge_lay_down`` is the only place that decides whether a selection may be laid down. The
terminal, the web routes and the computer players all go through it (via ``Game.apply``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.core.protocol import Said, said

from .cards import BY_RANK, BY_SUIT_RANK, Card, parse_card, sort_cards

MELD = "meld"
RUN = "run"
MIN_SET_SIZE = 3


def is_meld(cards: Sequence[Card]) -> bool:
    """R6.1: 3 or more cards of the same value (at most 5: there are 5 suits)."""
    if len(cards) < MIN_SET_SIZE:
        return False
    value = cards[0].rank
    return all(card.rank == value for card in cards) and len(set(cards)) == len(cards)


def is_run(cards: Sequence[Card]) -> bool:
    """R6.2: 3 or more cards of one suit with consecutive values, aces high only (R1.1)."""
    if len(cards) < MIN_SET_SIZE:
        return False
    suit = cards[0].suit
    if any(card.suit != suit for card in cards):
        return False
    ranks = sorted(card.order for card in cards)
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:]))


class CardSet:
    """A meld or run laid down in front of a player. It only grows (R6.4)."""

    __slots__ = ("kind", "cards", "_fitting")

    def __init__(self, kind: str, cards: Sequence[Card]):
        self.kind = kind
        # A run is kept in value order so its ends are cards[0] and cards[-1].
        self.cards: list[Card] = sorted(cards, key=lambda c: c.order) if kind == RUN else list(cards)
        self._fitting: frozenset[Card] | None = None

    def fits(self, card: Card) -> bool:
        """Would ``card`` go on this set (extend a run's end, or share a meld's value)?"""
        return card in self.fitting

    @property
    def fitting(self) -> frozenset[Card]:
        """The cards that would go on this set: a run's two ends, or a meld's value (R6.3)."""
        if self._fitting is None:
            cards = self.cards
            if self.kind == RUN:
                suit = BY_SUIT_RANK[cards[0].suit_index]
                low, high = cards[0].order - 1, cards[-1].order + 1  # aces high only (R1.1)
                self._fitting = frozenset(suit[rank] for rank in (low, high) if 0 <= rank < len(suit))
            else:
                self._fitting = frozenset(card for card in BY_RANK[cards[0].order] if card not in cards)
        return self._fitting

    def add(self, card: Card) -> None:
        self._fitting = None
        if self.kind == RUN:
            if card.order < self.cards[0].order:
                self.cards.insert(0, card)
            else:
                self.cards.append(card)
        else:
            self.cards.append(card)

    def copy(self) -> CardSet:
        clone = CardSet.__new__(CardSet)
        clone.kind = self.kind
        clone.cards = list(self.cards)
        clone._fitting = self._fitting
        return clone

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": [card.code for card in self.cards]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CardSet:
        kind = data["kind"]
        if kind not in (MELD, RUN):
            raise ValueError(f"unknown set kind {kind!r}")
        return cls(kind, [parse_card(code) for code in data["cards"]])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and self.kind == other.kind and self.cards == other.cards

    def __str__(self) -> str:
        return " ".join(card.code for card in self.cards)

    def __repr__(self) -> str:
        return f"CardSet({self.kind}: {self})"


@dataclass(frozen=True)
class NewSet:
    """R6.3 rule 1: the selection becomes a new set."""

    kind: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class LayOffs:
    """R6.3 rule 2: each card goes onto one of the player's own sets, in this order."""

    placements: tuple[tuple[Card, int], ...]  # (card, index of the set in the player's sets)


@dataclass(frozen=True)
class Refusal:
    """R6.3 rule 3: nothing moves; ``reason`` says why in words a player understands (``say``:
    the same as a ``said`` text, for the web)."""

    reason: str
    say: Said | None = None


Judgement = NewSet | LayOffs | Refusal


def judge_lay_down(selection: Sequence[Card], own_sets: Sequence[CardSet]) -> Judgement:
    """Judge a well-formed selection against R6.3. Pure: ``own_sets`` is not changed.

    ``selection`` holds distinct cards from the player's hand; only the player's OWN sets may
    receive lay-offs.
    """
    if not selection:
        return Refusal("no cards were selected", said("no cards were selected"))
    cards = sort_cards(selection)  # R6.3 step 2 works in hand order (R9.2), whatever was typed
    # Rule 1: a new meld or run.
    if len(cards) >= MIN_SET_SIZE:
        if is_run(cards):
            return NewSet(RUN, tuple(sorted(cards, key=lambda c: c.order)))
        if is_meld(cards):
            return NewSet(MELD, tuple(cards))
    # Rule 2: every card finds a place on the player's own sets; runs first.
    if not own_sets:
        reason, say = _not_a_set_reason(cards)
        return Refusal(reason + "; single cards can only go onto your own sets, and you have none yet",
                       said("{reason}; single cards can only go onto your own sets, and you have none yet",
                            reason=say))
    runs = [(index, list(card_set.cards)) for index, card_set in enumerate(own_sets) if card_set.kind == RUN]
    melds = [(index, card_set.cards[0].rank) for index, card_set in enumerate(own_sets) if card_set.kind == MELD]
    remaining = list(cards)
    placements: list[tuple[Card, int]] = []
    placed_on_run = True
    while placed_on_run and remaining:
        placed_on_run = False
        for card in remaining:  # first such card in hand order
            for index, run in runs:  # the run laid down first wins
                if card.suit == run[0].suit and (card.order == run[0].order - 1 or card.order == run[-1].order + 1):
                    if card.order < run[0].order:
                        run.insert(0, card)
                    else:
                        run.append(card)
                    placements.append((card, index))
                    remaining.remove(card)
                    placed_on_run = True
                    break
            if placed_on_run:
                break
    unplaced: list[Card] = []
    for card in remaining:
        target = next((index for index, value in melds if value == card.rank), None)
        if target is None:
            unplaced.append(card)
        else:
            placements.append((card, target))
    if unplaced:
        names = " ".join(card.code for card in unplaced)
        verb = "does" if len(unplaced) == 1 else "do"
        reason, say = _not_a_set_reason(cards)
        return Refusal(f"{reason}; and {names} {verb} not fit onto any of your own sets",
                       said(("{reason}; and {codes} does not fit onto any of your own sets",
                             "{reason}; and {codes} do not fit onto any of your own sets"),
                            reason=say, codes=names, count=len(unplaced)))
    return LayOffs(tuple(placements))


def fitting_cards(card_sets: Sequence[CardSet]) -> frozenset[Card]:
    """Every card that would go onto one of ``card_sets``."""
    if len(card_sets) == 1:
        return card_sets[0].fitting
    return frozenset().union(*[card_set.fitting for card_set in card_sets])


def _not_a_set_reason(cards: Sequence[Card]) -> tuple[str, Said]:
    """Why ``cards`` make no new set, in words and as a ``said`` text."""
    shown = " ".join(card.code for card in cards)
    if len(cards) < MIN_SET_SIZE:
        count = "one card is" if len(cards) == 1 else f"{len(cards)} cards are"
        return (f"{shown}: {count} too few for a new meld or run (3 or more are needed)",
                said(("{codes}: one card is too few for a new meld or run (3 or more are needed)",
                      "{codes}: {count} cards are too few for a new meld or run (3 or more are needed)"),
                     codes=shown, count=len(cards)))
    return (f"{shown} is neither a meld (same value) nor a run (same suit, values in a row)",
            said("{codes} is neither a meld (same value) nor a run (same suit, values in a row)", codes=shown))
