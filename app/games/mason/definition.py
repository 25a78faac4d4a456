"""Mason Rummy as the table's registry knows it."""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from app.core.cards import Card
from app.core.protocol import MENUS, SCORE_TABLE, GameDefinition, MenuFlow, ScoreTableFormat

from . import actions
from .bot import COMPUTER, MasonBot, random_discard_chooser
from .cards import DECK
from .game import MAX_SEATS, MIN_SEATS, Game, deal_layout
from .menus import GAME_OPTIONS, MENU_A, MENU_B, QUIT, VIEW_SCORES
from .scores import ESCAPE, ScoreRow, ScoresFileError, ScoreTable, decode_scores_bytes, diff_tables


class MasonRummy(GameDefinition):
    key = "mason"
    name = "Mason Rummy"
    summary = "65 cards in five suits, 2-3 players, 3 rounds, lowest total wins"
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    deck = DECK
    bot = COMPUTER
    # What the house needs (R9): Menu A is the home page's first form, then Menus B and C; the
    # decks are in decks/ itself, where the terminal reads them (R9.4); the R7.4 score table and
    # its scores.csv (R7.5) instead of per-name statistics.
    setup_flow = MENUS
    menus = MenuFlow(first_menu=MENU_A, games=GAME_OPTIONS, view_scores=VIEW_SCORES, quit=QUIT, seat_menu=MENU_B)
    decks_folder = ""
    score_keeping = SCORE_TABLE
    score_table = ScoreTableFormat(table=ScoreTable, row=ScoreRow, file_error=ScoresFileError,
                                   decode=decode_scores_bytes, diff=diff_tables, escape=ESCAPE)
    table_actions = frozenset({"next_round"})

    def new_state(self, names: Sequence[str], *, options: Mapping[str, Any] | None = None,
                  seed: int | str | None = None, stacked_deck: Sequence[Card] | None = None) -> Game:
        self.check_seats(names)
        return Game.new(list(names), stacked_deck=stacked_deck, seed=None if stacked_deck is not None else seed)

    def from_dict(self, data: Mapping[str, Any]) -> Game:
        return Game.from_dict(dict(data))

    def action_from_dict(self, data: Mapping[str, Any]):
        return actions.action_from_dict(data)

    def action_to_dict(self, action) -> dict:
        return actions.action_to_dict(action)

    baseline_label = "random discards"

    def tally(self, state: Game) -> dict:
        # A blocked round (R7.2) is the only one where nobody scored 0: the player who went out
        # adds 0 (R7.1), and any hand that still holds a card is worth at least 2 points.
        return {"rounds": len(state.round_turns), "turns": sum(state.round_turns),
                "blocked": sum(1 for points in state.round_scores if 0 not in points)}

    def tally_lines(self, totals, games: int) -> list[str]:
        return [f"average turns per round: {totals.get('turns', 0) / max(totals.get('rounds', 0), 1):.1f}",
                f"blocked rounds: {totals.get('blocked', 0)} of {totals.get('rounds', 0)}"]

    def deck_preview(self, cards: Sequence[Card]) -> list[tuple[str, list[Card]]]:
        """Each seat's first hand (R4.2), and the face-up card with 2 and with 3 players."""
        hands, _face_up, _stock = deal_layout(list(cards), MAX_SEATS)
        preview = [(f"Seat {seat}", hand) for seat, hand in enumerate(hands, start=1)]
        for seats in range(MIN_SEATS, MAX_SEATS + 1):
            preview.append((f"Face up first with {seats} players", [deal_layout(list(cards), seats)[1]]))
        return preview

    def baseline_bot(self, rng: random.Random) -> MasonBot:
        """Draws and lays down by R8.1/R8.2 but discards a random card: what R8.3 is measured against."""
        return MasonBot(discard=random_discard_chooser(rng))


MASON = MasonRummy()
Game.definition = MASON
