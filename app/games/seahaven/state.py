"""Seahaven Towers on the game protocol: ``SeahavenState``.

One seat plays alone, on its turn for the whole game; the actions are in ``actions.py``, the deal
(S2) comes from a stacked deck or a deal number (``deals.py``).

A move may bring its *automatic moves* along (``MoveCard.auto``: the player's table sends cards
home by themselves): after the player's card, every card that can go home goes (the moves of
``Layout.moves_home``, always safe), in the same action; the history marks them, so one undo
takes a move back with the cards it sent home. ``view()`` never asks the solver: the
"still winnable?" mark and the hint are the house's kept answers (``analysis.py``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from app.core.cards import Card, InvalidCardError
from app.core.protocol import (
    EVERYONE, GameDefinition, GameState, Move, Outcome, Said, SeatResult, View, WrongPhase, Zone, N_, filled,
    read_said, said,
)

from .actions import Action, Finish, MoveCard, Undo
from .rules import (
    CELLS, DECK, IllegalMove, Layout, NotAPlace, describe_move, parse_place, place_name, place_said, refusal,
)
if TYPE_CHECKING:
    from .solver import Solver

STATE_FORMAT = 2  # 1: moves without the automatic mark (read too)

PLAYING, WON, GIVEN_UP = "playing", "won", "given_up"
STUCK = "stuck"  # shown, never stored: a playing game with no legal move left (S3.6)


class SeahavenView(View):
    """What the player (and a spectator) sees: every card, face up (S2.1), and the game's marks."""

    deal: int | None
    classic: bool
    winnable_only: bool
    status: str
    stuck: bool
    columns: list[list[str]]
    cells: list[str | None]
    foundations: list[list[str]]
    cards_home: int
    moves_made: int
    auto_moved: int
    undos: int
    can_undo: bool
    last_move: dict[str, str] | None
    auto_moves: list[dict[str, str]]
    can_finish: bool
    targets: dict[str, list[str]]
    arrivals: dict[str, list[str]]
    to_foundation: dict[str, str]


class SeahavenState(GameState):
    """A game of Seahaven Towers. ``dealt`` is the deck order of the deal, ``history`` the moves
    on the board now (undone moves are gone from it; the log keeps them), each (source, target,
    card, automatic): an automatic move went home by itself after the move before it.
    ``last_auto``: how many automatic moves the last action made (shown one by one)."""

    def __init__(self, definition: GameDefinition, name: str, dealt: Sequence[Card], *, classic: bool,
                 deal: int | None, seed: int | str | None, winnable_only: bool, cells: int = CELLS,
                 kings_only: bool = True):
        super().__init__(definition, [name])
        self.deck = DECK
        self.dealt = list(dealt)
        self.classic = classic
        self.deal = deal
        self.seed = seed
        self.winnable_only = winnable_only
        self.cells = cells  # S7.1
        self.kings_only = kings_only  # S7.2
        self.layout = Layout.deal(self.dealt, classic, open_cells=cells, kings_only=kings_only)
        self.history: list[tuple[str, str, Card, bool]] = []
        self.last_auto = 0
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
        if self.layout.home_line() is not None:
            moves.append(Move("finish", "Finish: send every card home"))
        if self.history:
            source, target, card, _auto = self.history[self._group_start()]
            moves.append(Move("undo", f"Undo {describe_move(card, source, target)}", primary=False,
                              say=said("Undo: the {card} back from {to} to {from}", card=card.id,
                                       **{"from": place_said(source), "to": place_said(target)})))
        moves.append(Move("give_up", "Give up this deal", primary=False))
        return moves

    def _move_button(self, source: str, target: str) -> Move:
        card = self.layout.card_at(source)
        assert card is not None  # (a legal move's place holds a card)
        return Move("move", describe_move(card, source, target), params=(("from", source), ("to", target)),
                    primary=not (source[0] == "c" and target[0] == "c"),
                    say=said("The {card} from {from} to {to}", card=card.id,
                             **{"from": place_said(source), "to": place_said(target)}))

    def out_of_turn_refusal(self, seat: int | None) -> Said:
        return said("Only the player at seat 1 plays this solitaire.")

    def _step(self, seat: int | None, action: Action) -> Outcome:
        if isinstance(action, MoveCard):
            return self._move(action)
        if isinstance(action, Undo):
            return self._undo(action)
        if isinstance(action, Finish):
            return self._finish(action)
        self.last_auto = 0
        outcome = Outcome(action, 0)
        self.status = GIVEN_UP
        home, made = self.layout.cards_home(), self.moves_made()
        self._event(outcome, f"{self.label(0)} gave up with {home} card{'s' if home != 1 else ''} home after "
                             f"{made} move{'s' if made != 1 else ''}.",
                    say=said(("{player} gave up after {count} move, with {home} of the 52 cards home.",
                              "{player} gave up after {count} moves, with {home} of the 52 cards home."),
                             player=self.label(0), count=made, home=home))
        outcome.game_over = True
        return outcome

    def _move(self, action: MoveCard) -> Outcome:
        source, target = action.source, action.target
        if action.card is not None:
            there = self.layout.card_at(source)
            if there is None or there.id != action.card:
                raise refusal("S3.1", [], "{code} is not the card in {place} ({other} is): only that card may "
                              "move from there", code=action.card, place=place_said(source),
                              other=there.code if there is not None else said("nothing"))
        card = self.layout.move(source, target)  # checks first: a refusal changes nothing
        self.history.append((source, target, card, False))
        outcome = Outcome(action, 0)
        self._event(outcome, f"Moved {describe_move(card, source, target)}",
                    said("Moved the {card} from {from} to {to}.", card=card.id,
                         **{"from": place_said(source), "to": place_said(target)}), [card])
        self.last_auto = 0
        if action.auto:
            for home_from, home_to in self.layout.moves_home():
                going = self.layout.move(home_from, home_to)
                self.history.append((home_from, home_to, going, True))
                self.last_auto += 1
                self._event(outcome, f"{going.code} went home by itself, from {place_name(home_from)} to "
                                     f"{place_name(home_to)}",
                            said("The {card} went home by itself, from {from} to {to}.", card=going.id,
                                 **{"from": place_said(home_from), "to": place_said(home_to)}), [going])
        return self._after_moves(outcome)

    def _finish(self, action: Finish) -> Outcome:
        line = self.layout.home_line()
        if line is None:
            raise IllegalMove("not every card left can go home by moves to the foundations alone: "
                              "move a card elsewhere first", "S3.2")
        outcome = Outcome(action, 0)
        sent = []
        for number, (source, target) in enumerate(line):
            sent.append(self.layout.move(source, target))
            self.history.append((source, target, sent[-1], number > 0))  # one group: one undo
        self.last_auto = max(0, len(line) - 1)
        self._event(outcome, f"Finished: the last {len(line)} card{'s' if len(line) != 1 else ''} went home",
                    said(("Finished: the last card went home.", "Finished: the last {count} cards went home."),
                         count=len(line)), sent)
        return self._after_moves(outcome)

    def _after_moves(self, outcome: Outcome) -> Outcome:
        if self.layout.is_won():
            self.status = WON
            outcome.game_over = True
            made = self.moves_made()
            self._event(outcome, f"You won! All 52 cards are home in {made} move{'s' if made != 1 else ''}.",
                        said(("All 52 cards are home in {count} move.", "All 52 cards are home in {count} moves."),
                             count=made))
        elif not self.layout.has_legal_move():
            self._event(outcome, "No legal moves: this position is lost. Undo a move or give up.",
                        said("No legal moves: this position is lost. Undo a move or give up."))
        return outcome

    def _undo(self, action: Undo) -> Outcome:
        if not self.history:
            raise WrongPhase("There is no move to undo.")
        start = self._group_start()
        group = self.history[start:]
        del self.history[start:]
        for source, target, _card, _auto in reversed(group):
            self.layout.take_back(source, target)
        self.undos += 1
        self.last_auto = 0
        outcome = Outcome(action, 0)
        source, target, card, _auto = group[0]
        also = len(group) - 1
        more = f" and the {also} card{'s' if also != 1 else ''} it sent home" if also else ""
        words = {"from": place_said(source), "to": place_said(target)}
        self._event(outcome, f"Undid the move of {describe_move(card, source, target)}{more}",
                    said(("Undid the move of the {card} from {from} to {to}, and the card it sent home.",
                          "Undid the move of the {card} from {from} to {to}, and the {count} cards it sent home."),
                         card=card.id, count=also, **words) if also else
                    said("Undid the move of the {card} from {from} to {to}.", card=card.id, **words), [card])
        return outcome

    def _group_start(self) -> int:
        """Where the last move on the board and the automatic moves after it begin in the history."""
        start = len(self.history) - 1
        while start > 0 and self.history[start][3]:
            start -= 1
        return start

    def _event(self, outcome: Outcome, text: str, say: Said, cards: Sequence[Card] = ()) -> None:
        self.log_event(outcome, 0, text, cards, say=say)

    # -- the solver (S5.2) -----------------------------------------------------------------------------

    def solver(self) -> Solver:
        """The solver of this game's deal, shared by every question about it (memoised). A
        layout that no play of the deal gives (set up by hand) is judged on its own."""
        from .solver import Solver, solver_for  # (loaded where it is asked, not by every web worker)

        solver = solver_for(Layout.deal(self.dealt, self.classic).columns)
        return solver if solver.fits(self.layout) else Solver(self.layout.columns)

    # (For the terminal, the simulator and the tests: the web never asks these on a request, but
    # shows the answers its job runner keeps, analysis.py.)

    def winnable(self, budget: int | None = None) -> bool:
        """S5.1/S5.2: can the game still be won from here? Exact. ``budget``: see the solver."""
        return self.solver().winnable(self.layout, budget)

    def hint(self, budget: int | None = None) -> MoveCard | None:
        """S5.2: the next move of a winning line from here, or None if the game cannot be won
        (or is played by a house rule of S7, which the solver does not know)."""
        if not self.layout.rule_book:
            return None
        step = self.solver().hint(self.layout, budget)
        return MoveCard(*step) if step is not None else None

    def winning_line(self, budget: int | None = None) -> list[MoveCard] | None:
        """Every move of a winning line from here (not always the shortest), or None."""
        line = self.solver().line(self.layout, budget)
        return [MoveCard(source, target) for source, target in line] if line is not None else None

    def moves_made(self) -> int:
        """The move counter (S6.1): the player's moves on the board now (Finish is one); the cards
        that went home by themselves are counted apart (``auto_moved``), and an undone move no
        longer counts."""
        return sum(1 for _source, _target, _card, auto in self.history if not auto)

    def auto_moved(self) -> int:
        """The cards on the board now that went home by themselves (or with Finish)."""
        return len(self.history) - self.moves_made()

    # -- what players see ----------------------------------------------------------------------------------

    def stage(self) -> str:
        return filled(self.stage_said())

    def stage_said(self) -> Said:
        if self.deal is None:
            return said("Deal from a deck file, classic deal") if self.classic else \
                said("Deal from a deck file, open deal")
        return said("Deal {deal}, classic deal", deal=self.deal) if self.classic else \
            said("Deal {deal}, open deal", deal=self.deal)

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
            PLAYING: N_("move a card"),
            STUCK: N_("no legal moves: undo a move or give up"),
            WON: N_("you won"),
            GIVEN_UP: N_("the game was given up"),
        }[status]
        summary = None
        if self.is_over():
            made, at_home = self.moves_made(), layout.cards_home()
            summary = {"won": self.status == WON, "moves": made, "auto_moved": self.auto_moved(), "cards_home": at_home,
                       "text": (f"Won in {made} move{'s' if made != 1 else ''}." if self.status == WON else
                                f"Given up with {at_home} card{'s' if at_home != 1 else ''} home.")}
        return {
            "seat": seat,
            "players": [self.seat_view(0)],
            "turn": self.to_move(),
            "stage": self.stage(),
            "stage_say": self.stage_said(),
            "prompt": prompt,
            "hand": [] if seat == 0 else None,  # the player holds no cards; a spectator sees no hand
            "log": self.view_log(seat),
            "summary": summary,
            "deal": self.deal,
            "classic": self.classic,
            "winnable_only": self.winnable_only,
            "status": status,
            "stuck": stuck,
            "columns": [[card.id for card in column] for column in layout.columns],
            "cells": [card.id if card is not None else None for card in layout.cells[:self.cells]],  # S7.1
            "foundations": [[card.id for card in pile] for pile in layout.foundations],
            "cards_home": layout.cards_home(),
            "moves_made": self.moves_made(),
            "auto_moved": self.auto_moved(),
            "undos": self.undos,
            "can_undo": bool(self.history) and not self.is_over(),
            "last_move": ({"from": self.history[-1][0], "to": self.history[-1][1], "card": self.history[-1][2].id}
                          if self.history else None),
            # the cards the last action sent home by themselves, in order (the table shows each)
            "auto_moves": [{"from": source, "to": target, "card": card.id}
                           for source, target, card, _auto in self.history[len(self.history) - self.last_auto:]]
                          if self.last_auto else [],
            "can_finish": status == PLAYING and layout.home_line() is not None,
            "targets": targets,
            "arrivals": arrivals,  # the other way round: for each place, the places whose card may go there
            "to_foundation": home,
        }

    def results(self) -> list[SeatResult]:
        if not self.is_over():
            return []
        won = self.status == WON
        home = self.layout.cards_home()
        # S6.2, and what a solitaire player expects besides (the definition's ``statistics``)
        figures = {"played": 1, "won": int(won), "streak": int(won), "best_streak": 0,
                   "deal_played": 1, "deal_won": int(won), "deal_most_home": home}
        if won:
            figures.update(fewest_moves=self.moves_made(), best_time=0,  # (the house measures the time)
                           deal_fewest_moves=self.moves_made(), deal_best_time=0)
        item = f"{self.deal}-{'classic' if self.classic else 'open'}" if self.deal is not None else None
        return [SeatResult(0, self._names[0], won, home, figures, item)]

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
            "cells": self.cells,
            "kings_only": self.kings_only,
            "deck": [card.id for card in self.dealt],
            "moves": [[source, target, card.id, 1] if auto else [source, target, card.id]
                      for source, target, card, auto in self.history],
            "last_auto": self.last_auto,
            "undos": self.undos,
            "status": self.status,
            **self.log_to_dict(),
        }

    @classmethod
    def from_dict(cls, definition: GameDefinition, data: Mapping[str, Any]) -> SeahavenState:
        """A saved game, its moves replayed; ``ValueError`` if the data is not a consistent game."""
        try:
            if data.get("format") not in (1, STATE_FORMAT):
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
            cells = data.get("cells", CELLS)  # (a game saved before the house rules of S7: the rule book's)
            if type(cells) is not int or not 1 <= cells <= CELLS:
                raise ValueError(f"{cells!r} cells")
            state = cls(definition, names[0], cards, classic=bool(data["classic"]), deal=deal,
                        seed=data.get("seed"), winnable_only=bool(data.get("winnable_only", False)), cells=cells,
                        kings_only=bool(data.get("kings_only", True)))
            for number, (source, target, card_id, *auto) in enumerate(data["moves"]):
                source, target = parse_place(source), parse_place(target)
                card = state.layout.move(source, target)
                if card.id != card_id:
                    raise ValueError(f"move {source} -> {target} moved {card.id}, not {card_id}")
                if auto and (not number or target[0] != "f"):
                    raise ValueError(f"move {source} -> {target} cannot have gone home by itself")
                state.history.append((source, target, card, bool(auto and auto[0])))
            state.last_auto = int(data.get("last_auto", 0))
            if not 0 <= state.last_auto <= len(state.history):
                raise ValueError("more automatic moves than moves")
            state.undos = int(data["undos"])
            status = data["status"]
            if status not in (PLAYING, WON, GIVEN_UP) or (status == WON) != state.layout.is_won():
                raise ValueError(f"the status {status!r} does not fit the layout")
            state.status = status
            state.read_log(data, lambda event: {"seat": event["seat"], "text": str(event["text"]),
                                                "cards": list(event["cards"]), **read_said(event)})
            return state
        except (KeyError, TypeError, InvalidCardError, IllegalMove, NotAPlace) as error:
            raise ValueError(f"not a saved Seahaven Towers game: {error}") from None


__all__ = ["GIVEN_UP", "PLAYING", "STUCK", "WON", "SeahavenState", "SeahavenView"]
