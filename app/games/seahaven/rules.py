"""The layout of Seahaven Towers and its moves (S1-S3): pure data and checks, no game protocol.

A ``Layout`` holds the ten columns (``columns[i][0]`` is the top card, the first one dealt to
the column; ``columns[i][-1]`` its *bottom* card, the only one that may move, S2.1), the four
cells (a card or None) and the four foundations (``foundations[i][-1]`` is the top card).

Places are named as the terminal's commands number them, from 1: ``t1``-``t10`` (tableau
columns), ``c1``-``c4`` (cells), ``f1``-``f4`` (foundations). A move takes the one card a place
offers (S3.1) to another place; ``check`` says why a move is refused (S3.5) without changing
anything, ``move`` checks and then moves.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from app.core import IllegalAction
from app.core.protocol import Said, filled, said
from app.core.cards import Card, standard_deck

# S1.1: a standard deck, ace low. Seahaven Towers counts no points.
DECK = standard_deck("seahaven", ace="low", points={rank: 0 for rank in "A23456789TJQK"})

COLUMNS: Final = 10  # S2.1
CELLS: Final = 4
FOUNDATIONS = 4
ACE = 0  # Card.order of an ace (S1.1: ace low)
KING: Final = 12
OPEN_DEAL_SIZE = 52  # S2.3
CLASSIC_COLUMN_CARDS = 50  # S2.4: cards 51 and 52 go to cells 2 and 3
CLASSIC_CELLS = (1, 2)

KIND_NAMES = {"t": "column", "c": "cell", "f": "foundation"}
KIND_SIZES = {"t": COLUMNS, "c": CELLS, "f": FOUNDATIONS}
PLACES = tuple(f"{kind}{number}" for kind in "tcf" for number in range(1, KIND_SIZES[kind] + 1))
_PLACE_INDEX = {place: (place[0], int(place[1:]) - 1) for place in PLACES}


class IllegalMove(IllegalAction):
    """A card move the rules refuse (S3.5). ``rule`` is the rule's number (``"S3.3"``),
    ``cards`` the ids of the cards concerned."""

    code = "illegal_move"

    def __init__(self, message: str, rule: str, cards: Iterable[Card] = (), say: Said | None = None):
        super().__init__(message, say=say)
        self.rule = rule
        self.cards = tuple(card.id for card in cards)


class NotAPlace(ValueError):
    """A text that names no column, cell or foundation; the message says what does."""


def parse_place(text: str) -> str:
    """``t3``, ``C2``, `` f1 `` -> the place's canonical name, or ``NotAPlace``."""
    if not isinstance(text, str):
        raise NotAPlace(f"{text!r} is not a place")
    name = text.strip().lower()
    if name in _PLACE_INDEX:
        return name
    kind, number = name[:1], name[1:]
    if kind in KIND_NAMES and number.isdigit() and number.isascii():
        size = KIND_SIZES[kind]
        raise NotAPlace(f"there is no {KIND_NAMES[kind]} {number.lstrip('0')[:9] or '0'}: "
                        f"{KIND_NAMES[kind]}s are numbered 1 to {size}")
    shown = text.strip()[:12]
    raise NotAPlace(f"'{shown}' is not a place: t1-t{COLUMNS} are the columns, c1-c{CELLS} the cells, "
                    f"f1-f{FOUNDATIONS} the foundations")


PLACE_WORDS = {"t": "column {number}", "c": "cell {number}", "f": "foundation {number}"}


def place_name(place: str) -> str:
    """``t3`` -> ``column 3``."""
    return filled(place_said(place))


def place_said(place: str) -> Said:
    """``t3`` -> ``column 3``, as a ``said`` text (a field of another, in players' words)."""
    kind, index = _PLACE_INDEX[place]
    return said(PLACE_WORDS[kind], number=index + 1)


def refusal(rule: str, cards: Iterable[Card], template: str, **fields: Any) -> IllegalMove:
    """An ``IllegalMove`` from a template: its places ``said`` texts, its cards their codes."""
    say = said(template, **fields)
    return IllegalMove(_english(say), rule, cards, say=say)


def _english(say: Said) -> str:
    template, fields = say
    return str(template).format(**{name: filled(value) if isinstance(value, list) else value
                                   for name, value in fields.items()})


def describe_move(card: Card, source: str, target: str) -> str:
    return f"{card.code} from {place_name(source)} to {place_name(target)}"


class Layout:
    """The cards on the table. Plain lists of ``Card``; copy before trying things."""

    __slots__ = ("columns", "cells", "foundations", "open_cells", "kings_only")

    def __init__(self, columns: Sequence[Sequence[Card]], cells: Sequence[Card | None],
                 foundations: Sequence[Sequence[Card]], *, open_cells: int = CELLS, kings_only: bool = True):
        self.columns = [list(column) for column in columns]
        self.cells = list(cells)
        self.foundations = [list(pile) for pile in foundations]
        self.open_cells = open_cells  # S7.1: the cells a card may go into, from the first
        self.kings_only = kings_only  # S3.3; S7.2: an empty column takes any card

    @property
    def rule_book(self) -> bool:
        """Played by the rule book's rules (no house rule of S7): what the solver judges."""
        return self.open_cells == CELLS and self.kings_only

    @classmethod
    def deal(cls, cards: Sequence[Card], classic: bool = False, *, open_cells: int = CELLS,
             kings_only: bool = True) -> Layout:
        """S2.2-S2.4: card i goes to column (i mod 10) + 1; in the classic deal the last two
        cards go to cells 2 and 3 instead."""
        columns: list[list[Card]] = [[] for _ in range(COLUMNS)]
        cells: list[Card | None] = [None] * CELLS
        on_columns = CLASSIC_COLUMN_CARDS if classic else OPEN_DEAL_SIZE
        for position, card in enumerate(cards[:on_columns]):
            columns[position % COLUMNS].append(card)
        for cell, card in zip(CLASSIC_CELLS, cards[on_columns:]):
            cells[cell] = card
        return cls(columns, cells, [[] for _ in range(FOUNDATIONS)], open_cells=open_cells, kings_only=kings_only)

    def copy(self) -> Layout:
        return Layout(self.columns, self.cells, self.foundations, open_cells=self.open_cells,
                      kings_only=self.kings_only)

    def cards(self) -> list[Card]:
        """Every card on the table, once each."""
        found = [card for column in self.columns for card in column]
        found += [card for card in self.cells if card is not None]
        found += [card for pile in self.foundations for card in pile]
        return found

    def cards_home(self) -> int:
        return sum(len(pile) for pile in self.foundations)

    def is_won(self) -> bool:
        """S3.6: every card is on a foundation."""
        return self.cards_home() == DECK.size

    # -- what a place offers ----------------------------------------------------------------------

    def card_at(self, place: str) -> Card | None:
        """The card a place shows: a column's bottom card, a cell's card, a foundation's top."""
        kind, index = _PLACE_INDEX[place]
        if kind == "c":
            return self.cells[index]
        pile = self.columns[index] if kind == "t" else self.foundations[index]
        return pile[-1] if pile else None

    def foundation_for(self, card: Card) -> str | None:
        """The foundation that takes ``card`` now (S3.2), or None: the one of its suit, or the
        first empty one for an ace."""
        for index, pile in enumerate(self.foundations):
            if pile and pile[-1].suit == card.suit:
                return f"f{index + 1}" if pile[-1].order + 1 == card.order else None
        if card.order == ACE:
            for index, pile in enumerate(self.foundations):
                if not pile:
                    return f"f{index + 1}"
        return None

    # -- the rules ------------------------------------------------------------------------------------

    def check(self, source: str, target: str) -> Card:
        """The card that would move from ``source`` to ``target``, or ``IllegalMove`` saying which
        rule refuses it (S3.5). Both are place names (``parse_place``)."""
        kind, index = _PLACE_INDEX[source]
        if kind == "f":
            top = self.card_at(source)
            if top is None:
                raise refusal("S3.2", [], "cards never leave a foundation")
            raise refusal("S3.2", [top], "cards never leave a foundation: {code} stays on {place}", code=top.code,
                          place=place_said(source))
        card = self.card_at(source)
        if card is None:
            raise refusal("S3.1", [], "{place} is empty: there is no card to move", place=place_said(source))
        if source == target:
            raise refusal("S3.1", [card], "{code} is in {place} already: a move takes a card somewhere else",
                          code=card.code, place=place_said(source))
        kind, index = _PLACE_INDEX[target]
        if kind == "c":
            held = self.cells[index]
            if index >= self.open_cells:
                raise refusal("S7.1", [card], "{code} cannot go into {place}: this table plays with 1 cell"
                              if self.open_cells == 1 else "{code} cannot go into {place}: this table plays with "
                              "{cells} cells", code=card.code, place=place_said(target), cells=self.open_cells)
            if held is not None:
                raise refusal("S3.4", [card, held], "{code} cannot go into {place}: it holds {other}, and a cell "
                              "holds one card", code=card.code, place=place_said(target), other=held.code)
        elif kind == "f":
            pile = self.foundations[index]
            if not pile:
                if card.order != ACE:
                    raise refusal("S3.2", [card], "{code} cannot go onto empty {place}: an empty foundation takes "
                                  "only an ace", code=card.code, place=place_said(target))
            else:
                top = pile[-1]
                if top.suit != card.suit or top.order + 1 != card.order:
                    raise refusal("S3.2", [card, top], "{code} cannot go onto {other}: a foundation takes the next "
                                  "higher card of its own suit", code=card.code, other=top.code)
        else:
            column = self.columns[index]
            if not column:
                if card.order != KING and self.kings_only:
                    raise refusal("S3.3", [card], "{code} cannot go into empty {place}: an empty column takes only "
                                  "a king", code=card.code, place=place_said(target))
            else:
                bottom = column[-1]
                if bottom.suit != card.suit or bottom.order != card.order + 1:
                    raise refusal("S3.3", [card, bottom], "{code} cannot go onto {other}: a column takes the next "
                                  "lower card of its own suit", code=card.code, other=bottom.code)
        return card

    def move(self, source: str, target: str) -> Card:
        """Check the move, then make it; returns the card moved."""
        card = self.check(source, target)
        self._take(source)
        self._put(target, card)
        return card

    def take_back(self, source: str, target: str) -> Card:
        """Undo the move ``source`` -> ``target``: the card on top of ``target`` goes back to
        ``source`` (whatever the rules say about that direction)."""
        card = self._take(target)
        self._put(source, card)
        return card

    def _take(self, place: str) -> Card:
        kind, index = _PLACE_INDEX[place]
        if kind == "c":
            card, self.cells[index] = self.cells[index], None
            if card is None:
                raise ValueError(f"{place_name(place)} is empty")
            return card
        return (self.columns if kind == "t" else self.foundations)[index].pop()

    def _put(self, place: str, card: Card) -> None:
        kind, index = _PLACE_INDEX[place]
        if kind == "c":
            self.cells[index] = card
        else:
            (self.columns if kind == "t" else self.foundations)[index].append(card)

    def legal_moves(self) -> list[tuple[str, str]]:
        """Every legal move as (source, target): columns' bottom cards first, then cells; for each
        card its foundation (an ace: every empty one), then columns, then empty cells."""
        moves: list[tuple[str, str]] = []
        sources = [(f"t{i + 1}", column[-1]) for i, column in enumerate(self.columns) if column]
        sources += [(f"c{i + 1}", card) for i, card in enumerate(self.cells) if card is not None]
        bottoms = {column[-1]: f"t{i + 1}" for i, column in enumerate(self.columns) if column}
        empty_columns = [f"t{i + 1}" for i, column in enumerate(self.columns) if not column]
        empty_cells = [f"c{i + 1}" for i, card in enumerate(self.cells) if card is None and i < self.open_cells]
        empty_foundations = [f"f{i + 1}" for i, pile in enumerate(self.foundations) if not pile]
        for source, card in sources:
            if card.order == ACE:
                moves += [(source, place) for place in empty_foundations]  # S3.2: any empty one
            else:
                home = self.foundation_for(card)
                if home is not None:
                    moves.append((source, home))
            if card.order == KING or not self.kings_only:  # S3.3; S7.2
                moves += [(source, place) for place in empty_columns if place != source]
            if card.order != KING:
                for bottom, place in bottoms.items():
                    if bottom.suit == card.suit and bottom.order == card.order + 1:
                        moves.append((source, place))
            moves += [(source, place) for place in empty_cells if place != source]
        return moves

    def moves_home(self) -> list[tuple[str, str]]:
        """Every card that can reach its foundation by moves to the foundations alone, as those
        moves (source, target), lowest card first (then columns before cells, left to right),
        each one legal after the ones before it (S3.2).

        Sending a card home never spoils a game: a card on a column is only ever of use as the
        place for the next lower card of its own suit (S3.3), and that card is home already
        when this one may go (S3.2); cards in a cell or covering others only get in the way.
        So these moves are always safe, in any order, and the set of cards they reach is the
        same whichever order they are made in (each only adds places to go from)."""
        table = self.copy()
        moves: list[tuple[str, str]] = []
        while True:
            ready = []
            for index, column in enumerate(table.columns):
                if column:
                    ready.append((column[-1].order, index, f"t{index + 1}", column[-1]))
            for index, card in enumerate(table.cells):
                if card is not None:
                    ready.append((card.order, COLUMNS + index, f"c{index + 1}", card))
            going = None
            for _order, _rank, source, card in sorted(ready, key=lambda item: (item[0], item[1])):
                home = table.foundation_for(card)
                if home is not None:
                    going = (source, home)
                    break
            if going is None:
                return moves
            table.move(*going)
            moves.append(going)

    def home_line(self) -> list[tuple[str, str]] | None:
        """The moves that send every card left home by moves to the foundations alone, or None if
        some card cannot get there that way (then a card must move elsewhere first). Exact:
        ``moves_home`` reaches every card any such moves can."""
        moves = self.moves_home()
        return moves if self.cards_home() + len(moves) == DECK.size else None

    def has_legal_move(self) -> bool:
        """Cheaper than ``legal_moves``: any empty cell takes a card, else look closer."""
        if any(card is None for card in self.cells[:self.open_cells]) and any(self.columns):
            return True
        return bool(self.legal_moves())

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Layout) and self.columns == other.columns and self.cells == other.cells
                and self.foundations == other.foundations)

    __hash__ = None  # type: ignore[assignment]  # a layout changes

    def __repr__(self) -> str:
        columns = " | ".join(" ".join(card.code for card in column) for column in self.columns)
        cells = " ".join(card.code if card else "--" for card in self.cells)
        homes = " ".join(pile[-1].code if pile else "--" for pile in self.foundations)
        return f"Layout({columns} / cells {cells} / foundations {homes})"
