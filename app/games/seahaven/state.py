"""Seahaven Towers on the game protocol: the definition, the state, the actions.

One seat plays alone. An action is one of:

- ``MoveCard(source, target)``: one card from a column or a cell to a column, a cell or a
  foundation (S3), places named ``t1``-``t10``, ``c1``-``c4``, ``f1``-``f4``; plain data
  ``{"action": "move", "from": "t3", "to": "f1"}``, optionally with ``"cards": ["7H"]`` naming
  the card the player took (a move whose card is no longer there is refused);
- ``Undo()``: takes back the last move still on the board (S4.1, S6.1), as often as there are;
- ``GiveUp()``: ends an unwon game, so that it counts as played and not won (S6.2).

The deal (S2) comes from a stacked deck, or from a *deal number*: deal number N is always the
same shuffle, so two players given the same number race the same deal. With no number chosen,
the number is drawn from the table's seed; with ``winnable_only`` it is the first deal number
from there on that the solver (S5) finds winnable.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from app.core import (
    BadAction, GameDefinition, GameIsOver, GameState, Move, NotYourTurn, Option, Outcome, SeatResult, Stat,
    WrongPhase,
)
from app.core.cards import Card, InvalidCardError
from app.core.names import is_computer_name

from .rules import (
    CELLS, COLUMNS, DECK, FOUNDATIONS, IllegalMove, Layout, NotAPlace, describe_move, parse_place, place_name,
)
from .solver import Solver, keep, solver_for

STATE_FORMAT = 1
MAX_DEAL = 999_999_999
PLAYING, WON, GIVEN_UP = "playing", "won", "given_up"
STUCK = "stuck"  # shown, never stored: a playing game with no legal move left (S3.6)


# -- actions ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class MoveCard:
    """One card from ``source`` to ``target`` (S3.1). ``card``: the id of the card the player
    took, or None."""

    source: str
    target: str
    card: str | None = None


@dataclass(frozen=True)
class Undo:
    """Take back the last move (S4.1, S6.1)."""


@dataclass(frozen=True)
class GiveUp:
    """End the game unwon (S6.2)."""


Action = MoveCard | Undo | GiveUp


# -- deals -------------------------------------------------------------------------------------------------


def deal_cards(number: int) -> list[Card]:
    """The deck order of deal ``number``: the same for everyone, always."""
    cards = list(DECK.cards)
    random.Random(f"{number}/deal").shuffle(cards)
    return cards


def deal_number_from_seed(seed: int | str) -> int:
    """The deal a table seeded with ``seed`` plays when no deal number was chosen."""
    return random.Random(f"{seed}/deal-number").randint(1, MAX_DEAL)


def first_winnable_deal(number: int, classic: bool) -> int:
    """The first deal number from ``number`` on (wrapping round) that can be won (S5.2)."""
    while True:
        layout = Layout.deal(deal_cards(number), classic)
        solver = Solver(layout.columns)  # lost deals' memos are not kept
        if solver.winnable(layout):
            keep(solver)
            return number
        number = number % MAX_DEAL + 1


# -- the state ---------------------------------------------------------------------------------------------


class SeahavenState(GameState):
    """A game of Seahaven Towers. ``dealt`` is the deck order of the deal, ``history`` the moves
    on the board now (undone moves are gone from it; the log keeps them)."""

    def __init__(self, definition: "SeahavenDefinition", name: str, dealt: Sequence[Card], *, classic: bool,
                 deal: int | None, seed: int | str | None, winnable_only: bool):
        self.definition = definition
        self.deck = DECK
        self._names = [name]
        self.dealt = list(dealt)
        self.classic = classic
        self.deal = deal
        self.seed = seed
        self.winnable_only = winnable_only
        self.layout = Layout.deal(self.dealt, classic)
        self.history: list[tuple[str, str, Card]] = []
        self.undos = 0
        self.status = PLAYING
        self.log: list[dict] = []

    # -- the protocol ------------------------------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return list(self._names)

    def to_move(self) -> int | None:
        return None if self.is_over() else 0

    def is_over(self) -> bool:
        return self.status != PLAYING

    def is_stuck(self) -> bool:
        """S3.6: no legal card move, and not won. The game goes on: undo is still offered."""
        return self.status == PLAYING and not self.layout.has_legal_move()

    def legal(self, seat: int | None) -> list[Move]:
        if seat != 0 or self.is_over():
            return []
        moves = [self._move_button(source, target) for source, target in self.layout.legal_moves()]
        if self.history:
            source, target, card = self.history[-1]
            moves.append(Move("undo", f"Undo {describe_move(card, source, target)}", primary=False))
        moves.append(Move("give_up", "Give up this deal", primary=False))
        return moves

    def _move_button(self, source: str, target: str) -> Move:
        card = self.layout.card_at(source)
        return Move("move", describe_move(card, source, target), params=(("from", source), ("to", target)),
                    primary=not (source[0] == "c" and target[0] == "c"))

    def apply(self, seat: int | None, action: Any) -> Outcome:
        if self.is_over():
            raise GameIsOver("The game is over.")
        if seat != 0:
            raise NotYourTurn("Only the player at seat 1 plays this solitaire.")
        if isinstance(action, MoveCard):
            return self._move(action)
        if isinstance(action, Undo):
            return self._undo(action)
        if isinstance(action, GiveUp):
            outcome = Outcome(action, 0)
            self.status = GIVEN_UP
            self._event(outcome, f"{self.label(0)} gave up with {self.layout.cards_home()} cards home after "
                                 f"{self.moves_made()} moves.")
            outcome.game_over = True
            return outcome
        raise BadAction(f"{action!r} is not a Seahaven Towers action")

    def _move(self, action: MoveCard) -> Outcome:
        source, target = action.source, action.target
        if action.card is not None:
            there = self.layout.card_at(source)
            if there is None or there.id != action.card:
                shown = there.code if there is not None else "nothing"
                raise IllegalMove(f"{action.card} is not the card in {place_name(source)} ({shown} is): "
                                  "only that card may move from there (S3.1)", "S3.1")
        card = self.layout.move(source, target)  # checks first: a refusal changes nothing
        self.history.append((source, target, card))
        outcome = Outcome(action, 0)
        self._event(outcome, f"Moved {describe_move(card, source, target)}", [card])
        if self.layout.is_won():
            self.status = WON
            outcome.game_over = True
            self._event(outcome, f"You won! All 52 cards are home in {self.moves_made()} moves.")
        elif not self.layout.has_legal_move():
            self._event(outcome, "No legal moves: this position is lost. Undo a move or give up.")
        return outcome

    def _undo(self, action: Undo) -> Outcome:
        if not self.history:
            raise WrongPhase("There is no move to undo.")
        source, target, card = self.history.pop()
        self.layout.take_back(source, target)
        self.undos += 1
        outcome = Outcome(action, 0)
        self._event(outcome, f"Undid the move of {describe_move(card, source, target)}", [card])
        return outcome

    def _event(self, outcome: Outcome, text: str, cards: Sequence[Card] = ()) -> None:
        event = {"seat": 0, "text": text, "cards": [card.id for card in cards]}
        outcome.events.append(event)
        self.log.append(event)

    # -- the solver (S5.2) -----------------------------------------------------------------------------

    def solver(self) -> Solver:
        """The solver of this game's deal, shared by every question about it (memoised). A
        layout that no play of the deal gives (set up by hand) is judged on its own."""
        solver = solver_for(Layout.deal(self.dealt, self.classic).columns)
        return solver if solver.fits(self.layout) else Solver(self.layout.columns)

    def winnable(self) -> bool:
        """S5.1/S5.2: can the game still be won from here? Exact."""
        return self.solver().winnable(self.layout)

    def hint(self) -> MoveCard | None:
        """S5.2: the next move of a winning line from here, or None if the game cannot be won."""
        step = self.solver().hint(self.layout)
        return MoveCard(*step) if step is not None else None

    def winning_line(self) -> list[MoveCard] | None:
        """Every move of a winning line from here (not always the shortest), or None."""
        line = self.solver().line(self.layout)
        return [MoveCard(source, target) for source, target in line] if line is not None else None

    def moves_made(self) -> int:
        """The move counter (S6.1): the moves on the board now (an undone move no longer counts)."""
        return len(self.history)

    # -- what players see ----------------------------------------------------------------------------------

    def stage(self) -> str:
        kind = "classic deal" if self.classic else "open deal"
        where = f"Deal {self.deal}" if self.deal is not None else "Deal from a deck file"
        return f"{where}, {kind}"

    def view(self, seat: int | None) -> dict:
        layout = self.layout
        stuck = self.is_stuck()
        status = STUCK if stuck else self.status
        targets: dict[str, list[str]] = {}
        arrivals: dict[str, list[str]] = {}
        for source, target in layout.legal_moves() if not self.is_over() else []:
            targets.setdefault(source, []).append(target)
            arrivals.setdefault(target, []).append(source)
        home = {}
        for source, places in targets.items():
            found = next((place for place in places if place[0] == "f"), None)
            if found is not None:
                home[source] = found
        prompt = {
            PLAYING: "move a card",
            STUCK: "no legal moves: undo a move or give up",
            WON: "you won",
            GIVEN_UP: "the game was given up",
        }[status]
        # S5.2: the "still winnable?" mark and the hint, from the solver (memoised per deal, so
        # usually a lookup after a move); None once the game is over.
        winnable = hint = None
        if status == PLAYING:
            winnable = self.winnable()
            step = self.hint() if winnable else None
            if step is not None:
                card = layout.card_at(step.source)
                hint = {"from": step.source, "to": step.target, "card": card.id,
                        "text": describe_move(card, step.source, step.target)}
        elif stuck:
            winnable = False
        summary = None
        if self.is_over():
            summary = {"won": self.status == WON, "moves": self.moves_made(), "cards_home": layout.cards_home(),
                       "text": (f"Won in {self.moves_made()} moves." if self.status == WON else
                                f"Given up with {layout.cards_home()} cards home.")}
        return {
            "seat": seat,
            "players": [{"seat": 0, "name": self._names[0], "label": self.label(0),
                         "computer": is_computer_name(self._names[0])}],
            "turn": self.to_move(),
            "stage": self.stage(),
            "prompt": prompt,
            "hand": [] if seat == 0 else None,  # the player holds no cards; a spectator sees no hand
            "log": [dict(event, cards=list(event["cards"])) for event in self.log],
            "summary": summary,
            "deal": self.deal,
            "classic": self.classic,
            "winnable_only": self.winnable_only,
            "status": status,
            "stuck": stuck,
            "winnable": winnable,
            "hint": hint,
            "columns": [[card.id for card in column] for column in layout.columns],
            "cells": [card.id if card is not None else None for card in layout.cells],
            "foundations": [[card.id for card in pile] for pile in layout.foundations],
            "cards_home": layout.cards_home(),
            "moves_made": self.moves_made(),
            "undos": self.undos,
            "can_undo": bool(self.history) and not self.is_over(),
            "last_move": ({"from": self.history[-1][0], "to": self.history[-1][1], "card": self.history[-1][2].id}
                          if self.history else None),
            "targets": targets,
            "arrivals": arrivals,  # the other way round: for each place, the places whose card may go there
            "to_foundation": home,
        }

    def results(self) -> list[SeatResult]:
        if not self.is_over():
            return []
        won = self.status == WON
        figures = {"played": 1, "won": int(won)}
        if won:
            figures["fewest_moves"] = self.moves_made()
        return [SeatResult(0, self._names[0], won, self.layout.cards_home(), figures)]

    def card_locations(self) -> Counter:
        return Counter(self.layout.cards())

    def hidden_from(self, seat: int | None) -> set[Card]:
        return set()  # S2.1: every card is face up

    # -- saving ------------------------------------------------------------------------------------------

    def to_dict(self) -> dict:
        return {
            "format": STATE_FORMAT,
            "names": list(self._names),
            "deal": self.deal,
            "seed": self.seed,
            "classic": self.classic,
            "winnable_only": self.winnable_only,
            "deck": [card.id for card in self.dealt],
            "moves": [[source, target, card.id] for source, target, card in self.history],
            "undos": self.undos,
            "status": self.status,
            "log": [dict(event, cards=list(event["cards"])) for event in self.log],
        }


# -- the definition ---------------------------------------------------------------------------------------


class SeahavenDefinition(GameDefinition):
    key = "seahaven"
    name = "Seahaven Towers"
    summary = "Solitaire: free four towers of cards, building down by suit, with four cells."
    min_seats = 1
    max_seats = 1
    deck = DECK
    options = (
        Option("classic", "Classic deal (two cards start in the cells)", "bool", False,
               help="S2.4: the published game's deal; the default is the open deal, every card in the columns."),
        Option("deal", "Deal number (0: a random deal)", "int", 0, low=0, high=MAX_DEAL,
               help="The same number always deals the same cards: race a friend on it."),
        Option("winnable_only", "Deal only winnable games", "bool", False,
               help="S5.2: the first deal from the chosen (or random) number on that can be won."),
    )
    statistics = (
        Stat("played", "Games played"),
        Stat("won", "Games won"),
        Stat("fewest_moves", "Fewest moves to win", "min"),
    )

    def __init__(self) -> None:
        from .bot import SolverBot

        self.bot = SolverBot()

    def baseline_bot(self, rng: random.Random):
        from .bot import RandomBot

        return RandomBot(rng)

    def new_state(self, names: Sequence[str], *, options: Mapping[str, Any] | None = None,
                  seed: int | str | None = None, stacked_deck: Sequence[Card] | None = None) -> SeahavenState:
        self.check_seats(names)
        values = self.validate_options(options)
        classic, winnable_only = values["classic"], values["winnable_only"]
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
                deal = first_winnable_deal(deal, classic)
            cards = deal_cards(deal)
        return SeahavenState(self, names[0], cards, classic=classic, deal=deal, seed=seed,
                             winnable_only=winnable_only)

    def from_dict(self, data: Mapping[str, Any]) -> SeahavenState:
        try:
            if data.get("format") != STATE_FORMAT:
                raise ValueError(f"unknown saved-game format {data.get('format')!r}")
            names = list(data["names"])
            if len(names) != 1 or not isinstance(names[0], str):
                raise ValueError("a Seahaven Towers game has one seat")
            cards = [DECK.parse(card_id) for card_id in data["deck"]]
            if len(cards) != DECK.size or len(set(cards)) != DECK.size:
                raise ValueError("the deck must hold the 52 cards once each")
            deal = data["deal"]
            if deal is not None and (not isinstance(deal, int) or isinstance(deal, bool)):
                raise ValueError("the deal number must be a whole number")
            state = SeahavenState(self, names[0], cards, classic=bool(data["classic"]), deal=deal,
                                  seed=data.get("seed"), winnable_only=bool(data.get("winnable_only", False)))
            for source, target, card_id in data["moves"]:
                source, target = parse_place(source), parse_place(target)
                card = state.layout.move(source, target)
                if card.id != card_id:
                    raise ValueError(f"move {source} -> {target} moved {card.id}, not {card_id}")
                state.history.append((source, target, card))
            state.undos = int(data["undos"])
            status = data["status"]
            if status not in (PLAYING, WON, GIVEN_UP) or (status == WON) != state.layout.is_won():
                raise ValueError(f"the status {status!r} does not fit the layout")
            state.status = status
            state.log = [{"seat": event["seat"], "text": str(event["text"]), "cards": list(event["cards"])}
                         for event in data["log"]]
            return state
        except (KeyError, TypeError, InvalidCardError, IllegalMove, NotAPlace) as error:
            raise ValueError(f"not a saved Seahaven Towers game: {error}") from None

    def action_from_dict(self, data: Mapping[str, Any]) -> Action:
        if not isinstance(data, Mapping):
            raise BadAction("An action is a set of named fields.")
        name = data.get("action")
        if name == "move":
            source, target = data.get("from"), data.get("to")
            if not isinstance(source, str) or not isinstance(target, str):
                raise BadAction("A move needs the place a card comes from and the place it goes to.")
            try:
                source, target = parse_place(source), parse_place(target)
            except NotAPlace as error:
                raise BadAction(str(error).capitalize() + ".") from None
            card = None
            cards = data.get("cards")
            named = not (cards is None or isinstance(cards, (list, tuple)) and not cards)  # a form's [] names none
            if named:
                if not isinstance(cards, (list, tuple)) or len(cards) != 1 or not isinstance(cards[0], str):
                    raise BadAction("A move takes one card at a time (S3.1).")
                try:
                    card = DECK.parse(cards[0].strip()).id
                except InvalidCardError as error:
                    raise BadAction(str(error)) from None
            return MoveCard(source, target, card)
        if name in ("undo", "give_up"):
            if data.get("cards"):
                raise BadAction(f"{'Undo' if name == 'undo' else 'Giving up'} takes no cards.")
            return Undo() if name == "undo" else GiveUp()
        if isinstance(name, str):
            raise BadAction(f"'{name[:20]}' is not a Seahaven Towers action: move, undo or give_up.")
        raise BadAction("An action needs its name: move, undo or give_up.")

    def action_to_dict(self, action: Action) -> dict:
        if isinstance(action, MoveCard):
            data = {"action": "move", "from": action.source, "to": action.target}
            if action.card is not None:
                data["cards"] = [action.card]
            return data
        if isinstance(action, Undo):
            return {"action": "undo"}
        if isinstance(action, GiveUp):
            return {"action": "give_up"}
        raise TypeError(f"not a Seahaven Towers action: {action!r}")


DEFINITION = SeahavenDefinition()

__all__ = [
    "Action", "CELLS", "COLUMNS", "DEFINITION", "FOUNDATIONS", "GIVEN_UP", "GiveUp", "MAX_DEAL", "MoveCard",
    "PLAYING", "STUCK", "SeahavenDefinition", "SeahavenState", "Undo", "WON", "deal_cards",
    "deal_number_from_seed", "first_winnable_deal",
]
