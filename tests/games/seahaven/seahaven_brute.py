"""A brute-force judge for small Seahaven positions: every single-card move (S3), every
position reached, no abstraction at all. Slow, so only for positions with few cards left; the
tests compare the exact solver's verdicts with it."""

from __future__ import annotations

import random

from app.games.seahaven.rules import DECK, FOUNDATIONS, Layout


def position_key(layout: Layout) -> tuple:
    cells = tuple(sorted(card.id for card in layout.cells if card is not None))
    columns = tuple(tuple(card.id for card in column) for column in layout.columns)
    homes = tuple(sorted(len(pile) for pile in layout.foundations))
    return columns, cells, homes


def brute_force_winnable(layout: Layout, limit: int = 2_000_000) -> bool:
    """True if some sequence of legal single-card moves wins (S3.6). Cell-to-cell moves are
    left out (cells are compared as a set, so they change nothing)."""
    seen = {position_key(layout)}
    stack = [layout.copy()]
    while stack:
        table = stack.pop()
        if table.is_won():
            return True
        for source, target in table.legal_moves():
            if source[0] == "c" and target[0] == "c":
                continue
            child = table.copy()
            child.move(source, target)
            key = position_key(child)
            if key not in seen:
                seen.add(key)
                if len(seen) > limit:
                    raise RuntimeError("position too large for the brute-force judge")
                stack.append(child)
    return False


def small_position(seed: int, left: int = 13, in_cells: int = 2, width: int = 10) -> Layout:
    """A random position with about ``left`` cards not home: each suit's lowest cards are on the
    foundations, the others lie in the columns in the order of a shuffled deal, and up to
    ``in_cells`` of them wait in the cells; only the first ``width`` columns are dealt to."""
    rng = random.Random(f"{seed}/small")
    cards = list(DECK.cards)
    rng.shuffle(cards)
    cut = {suit: 13 for suit in "CDHS"}
    suits = list("CDHS")
    for _ in range(left):
        # most cards from two suits: long same-suit stretches make the positions hard
        open_suits = [s for s in suits if cut[s] > 0]
        favoured = [s for s in open_suits if s in "CD"] or open_suits
        suit = rng.choice(favoured) if rng.random() < 0.8 else rng.choice(open_suits)
        cut[suit] -= 1
    out = [card for card in cards if card.order >= cut[card.suit]]
    cells = [None] * 4
    for cell in rng.sample(range(4), min(in_cells, len(out), 4)):
        cells[cell] = out.pop(rng.randrange(len(out)))
    placed = [card for card in cells if card is not None]
    remaining = [card for card in cards if card.order >= cut[card.suit] and card not in placed]
    columns = [[] for _ in range(10)]
    for position, card in enumerate(remaining):
        columns[rng.randrange(width) if rng.random() < 0.3 else position % width].append(card)
    foundations = [[] for _ in range(FOUNDATIONS)]
    for index, suit in enumerate(suits):
        foundations[index] = [card for card in DECK.cards if card.suit == suit and card.order < cut[suit]]
    return Layout(columns, cells, foundations)


def crowded_position(seed: int, classic: bool = False, extra: int = 3) -> Layout:
    """A position of a random deal after random play that fills the cells: few moves remain,
    so the brute-force judge can explore it whole, and many such positions are lost."""
    rng = random.Random(f"{seed}/crowded")
    cards = list(DECK.cards)
    rng.shuffle(cards)
    table = Layout.deal(cards, classic)
    played = 0
    while played < 200:
        moves = [move for move in table.legal_moves() if not (move[0][0] == "c" and move[1][0] == "c")]
        if not moves:
            break
        full = all(card is not None for card in table.cells)
        if full:
            if extra <= 0:
                break
            extra -= 1
        table.move(*rng.choice(moves))
        played += 1
    return table
