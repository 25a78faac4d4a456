"""Helpers for the Seahaven Towers tests: layouts written as text, stacked decks, states."""

from __future__ import annotations

import io
from pathlib import Path

import app.games  # noqa: F401  (registers the game)
from app.core.decks import format_deck
from app.games.seahaven import DEFINITION, SeahavenState, deal_cards
from app.games.seahaven.__main__ import main
from app.games.seahaven.rules import DECK, FOUNDATIONS, Layout

ROOT = Path(__file__).resolve().parents[3]
SAMPLE_DECKS = ROOT / "tests" / "decks" / "seahaven"
SHORT_WIN = SAMPLE_DECKS / "short_win.deck"
STUCK_AFTER_FOUR = SAMPLE_DECKS / "stuck_after_four.deck"


def cards(text: str) -> list:
    return [DECK.parse(code) for code in text.split()]


def layout(columns: list[str], cells: str = "", home: str = "") -> Layout:
    """A layout from text: ``columns`` top card first (``"9H 8H"``: 8H is the bottom card),
    ``cells`` four codes or ``--`` for an empty cell, ``home`` the top card of each foundation
    that holds cards (``"5H KC"``: AH-5H and AC-KC are home). Every card not named in a column or
    a cell and not home must not exist: the layout checks it holds the 52 cards."""
    grid = [cards(column) for column in columns] + [[] for _ in range(10 - len(columns))]
    cell_codes = cells.split() if cells else []
    cell_cards = [None if code == "--" else DECK.parse(code) for code in cell_codes]
    cell_cards += [None] * (4 - len(cell_cards))
    foundations = [[] for _ in range(FOUNDATIONS)]
    for index, top in enumerate(cards(home)):
        foundations[index] = [card for card in DECK.cards if card.suit == top.suit and card.order <= top.order]
    table = Layout(grid, cell_cards, foundations)
    held = table.cards()
    assert sorted(card.id for card in held) == sorted(card.id for card in DECK.cards), \
        f"the layout does not hold the 52 cards once each: {len(held)} cards"
    return table


def everything_but(*codes: str) -> str:
    """Foundation tops for every suit with all its cards below the named ones home."""
    named = cards(" ".join(codes))
    tops = []
    for suit in "CDHS":
        lowest = min((card.order for card in named if card.suit == suit), default=13)
        if lowest:
            tops.append(DECK.cards["CDHS".index(suit) * 13 + lowest - 1].code)
    return " ".join(tops)


def state_with(table: Layout, name: str = "Ann") -> SeahavenState:
    """A new game whose layout is replaced by ``table`` (for positions no deal gives)."""
    state = DEFINITION.new_state([name], options={"deal": 1})
    state.layout = table
    return state


def stacked_state(deck: list, classic: bool = False, name: str = "Ann") -> SeahavenState:
    return DEFINITION.new_state([name], options={"classic": classic}, stacked_deck=deck)


def deck_file(tmp_path: Path, deck: list, name: str = "game.deck") -> Path:
    path = tmp_path / name
    path.write_text(format_deck(deck), encoding="utf-8")
    return path


def run_terminal(argv: list[str], answers: str) -> tuple[int, list[str]]:
    """The terminal program in process: its status and the screen's lines."""
    stdout = io.StringIO()
    status = main(argv, io.StringIO(answers), stdout)
    return status, stdout.getvalue().splitlines()


__all__ = ["DEFINITION", "DECK", "Layout", "deal_cards", "cards", "layout", "table", "everything_but", "state_with",
           "stacked_state", "deck_file", "run_terminal", "SHORT_WIN", "STUCK_AFTER_FOUR", "SAMPLE_DECKS", "ROOT"]


def table(columns: list[str], cells: str = "", home: str = "") -> Layout:
    """Like ``layout``, but every card not named goes to column 10 (in deck order, so its
    bottom card is the highest card left of the last suit): for rule tests that need only a few
    cards in place. ``columns`` then describes columns 1-9 at most."""
    assert len(columns) <= 9
    named = set()
    for text in columns + [cells.replace("--", "")]:
        named.update(cards(text))
    foundations = [[] for _ in range(FOUNDATIONS)]
    for index, top in enumerate(cards(home)):
        foundations[index] = [card for card in DECK.cards if card.suit == top.suit and card.order <= top.order]
        named.update(foundations[index])
    rest = " ".join(card.code for card in DECK.cards if card not in named)
    grid = list(columns) + [""] * (9 - len(columns)) + [rest]
    return layout(grid, cells, home)
