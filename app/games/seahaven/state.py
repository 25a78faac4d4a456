"""Seahaven Towers on the game protocol: ``SeahavenState``.

One seat plays alone, on its turn for the whole game; the actions are in ``actions.py``, the deal
(S2) comes from a stacked deck or a deal number (``deals.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from app.core.cards import Card, InvalidCardError
from app.core.protocol import (
    EVERYONE, GameDefinition, GameState, Move, Outcome, SeatResult, View, WrongPhase, Zone,
)

from .actions import Action, MoveCard, Undo
from .rules import DECK, IllegalMove, Layout, NotAPlace, describe_move, parse_place, place_name
from .solver import Solver, solver_for

STATE_FORMAT = 1
PLAYING, WON, GIVEN_UP = "playing", "won", "given_up"
STUCK = "stuck"  # shown, never stored: a playing game with no legal move left (S3.6)


class SeahavenView(View):
    """What the player (and a spectator) sees: every card, face up (S2.1), and the game's marks."""

    deal: int | None
    classic: bool
    winnable_only: bool
    status: str
    stuck: bool
    winnable: bool | None
    hint: dict[str, str] | None
    columns: list[list[str]]
    cells: list[str | None]
    foundations: list[list[str]]
    cards_home: int
    moves_made: int
    undos: int
    can_undo: bool
    last_move: dict[str, str] | None
    targets: dict[str, list[str]]
    arrivals: dict[str, list[str]]
    to_foundation: dict[str, str]


class SeahavenState(GameState):
    """A game of Seahaven Towers. ``dealt`` is the deck order of the deal, ``history`` the moves
    on the board now (undone moves are gone from it; the log keeps them)."""

    def __init__(self, definition: GameDefinition, name: str, dealt: Sequence[Card], *, classic: bool,
                 deal: int | None, seed: int | str | None, winnable_only: bool):
        super().__init__(definition, [name])
        self.deck = DECK
        self.dealt = list(dealt)
        self.classic = classic
        self.deal = deal
        self.seed = seed
        self.winnable_only = winnable_only
        self.layout = Layout.deal(self.dealt, classic)
        self.history: list[tuple[str, str, Card]] = []
        self.undos = 0
        self.status = PLAYING

    # -- the protocol ------------------------------------------------------------------------------------

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
        assert card is not None  # (a legal move's place holds a card)
        return Move("move", describe_move(card, source, target), params=(("from", source), ("to", target)),
                    primary=not (source[0] == "c" and target[0] == "c"))

    def out_of_turn_refusal(self, seat: int | None) -> str:
        return "Only the player at seat 1 plays this solitaire."

    def _step(self, seat: int | None, action: Action) -> Outcome:
        if isinstance(action, MoveCard):
            return self._move(action)
        if isinstance(action, Undo):
            return self._undo(action)
        outcome = Outcome(action, 0)
        self.status = GIVEN_UP
        self._event(outcome, f"{self.label(0)} gave up with {self.layout.cards_home()} cards home after "
                             f"{self.moves_made()} moves.")
        outcome.game_over = True
        return outcome

    def _move(self, action: MoveCard) -> Outcome:
        source, target = action.source, action.target
        if action.card is not None:
            there = self.layout.card_at(source)
            if there is None or there.id != action.card:
                shown = there.code if there is not None else "nothing"
                raise IllegalMove(f"{action.card} is not the card in {place_name(source)} ({shown} is): "
                                  "only that card may move from there", "S3.1")
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
        self.record(outcome, 0, text, cards)

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

    def view(self, seat: int | None) -> SeahavenView:
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
                assert card is not None  # (a winning line's place holds a card)
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
            "players": [self.seat_view(0)],
            "turn": self.to_move(),
            "stage": self.stage(),
            "prompt": prompt,
            "hand": [] if seat == 0 else None,  # the player holds no cards; a spectator sees no hand
            "log": self.view_log(seat),
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

    def zones(self) -> list[Zone]:
        """S2.1: every card lies face up, in a column, a cell or on a foundation."""
        layout = self.layout
        return [Zone("columns", [card for column in layout.columns for card in column], EVERYONE),
                Zone("cells", [card for card in layout.cells if card is not None], EVERYONE),
                Zone("foundations", [card for pile in layout.foundations for card in pile], EVERYONE)]

    # -- saving ------------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
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
            **self.log_to_dict(),
        }

    @classmethod
    def from_dict(cls, definition: GameDefinition, data: Mapping[str, Any]) -> SeahavenState:
        """A saved game, its moves replayed; ``ValueError`` if the data is not a consistent game."""
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
            state = cls(definition, names[0], cards, classic=bool(data["classic"]), deal=deal,
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
            state.read_log(data, lambda event: {"seat": event["seat"], "text": str(event["text"]),
                                                "cards": list(event["cards"])})
            return state
        except (KeyError, TypeError, InvalidCardError, IllegalMove, NotAPlace) as error:
            raise ValueError(f"not a saved Seahaven Towers game: {error}") from None


__all__ = ["GIVEN_UP", "PLAYING", "STUCK", "WON", "SeahavenState", "SeahavenView"]
