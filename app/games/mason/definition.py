"""Mason Rummy as the table's registry knows it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

from app.core.cards import Card
from app.core.guides import Guide
from app.core.protocol import (
    EASY, MENUS, NORMAL, SCORE_TABLE, STRONG, TAKE_BACKS, GameDefinition, GameState, Measured, MenuFlow, Said,
    ScoreTableFormat, said,
)

from . import actions
from .guide import GUIDE
from .bot import COMPUTER, MasonBot, random_discard_chooser
from .cards import DECK, Card as MasonCard
from .easy import EasyBot
from .menus import GAME_OPTIONS, MENU_A, MENU_B, QUIT, VIEW_SCORES
from .scores import ESCAPE, ScoreRow, ScoresFileError, ScoreTable, decode_scores_bytes, diff_tables
from .state import MAX_SEATS, MIN_SEATS, MasonState, deal_layout, ROUND_DEALT
from .strong import StrongBot


class MasonDefinition(GameDefinition):
    key = "mason"
    name = "Mason Rummy"
    round_lines = {ROUND_DEALT: "Round {round}"}
    summary = "65 cards in five suits, 3 rounds: runs and melds, the lowest total wins."
    showcase = ("9P", "TP", "JP", "QH")  # a run in the green fifth suit, Patriots (R1.2)
    min_seats = MIN_SEATS
    max_seats = MAX_SEATS
    deck = DECK
    bot = COMPUTER
    other_bots = {EASY: EasyBot(), STRONG: StrongBot()}
    # ``python -m app.simulate --game mason --games 1000 --ladder`` (seed 0), as docs/games/mason.md says.
    measured = {STRONG: Measured(1000, share=0.611, against=NORMAL),
                NORMAL: Measured(1000, share=0.677, against=EASY),
                EASY: Measured(1000, share=0.884, against="random discards")}
    action_types = actions.ACTION_TYPES
    guide: ClassVar[Guide] = GUIDE  # its guided first game ("Learn by playing")
    options = (TAKE_BACKS,)  # a table's choice, no change to the rule book's game
    # What the house needs (R9): Menu A (its own page, its tile's Play on the home page), then
    # Menus B and C; the decks are in decks/ itself, where the terminal reads them (R9.4); the
    # R7.4 score table and its scores.csv (R7.5) instead of per-name statistics.
    setup_flow = MENUS
    menus = MenuFlow(first_menu=MENU_A, games=GAME_OPTIONS, view_scores=VIEW_SCORES, quit=QUIT, seat_menu=MENU_B)
    decks_folder = ""
    score_keeping = SCORE_TABLE
    score_table = ScoreTableFormat(table=ScoreTable, row=ScoreRow, file_error=ScoresFileError,
                                   decode=decode_scores_bytes, diff=diff_tables, escape=ESCAPE)

    def new_state(self, names: Sequence[str], *, options: Mapping[str, Any] | None = None,
                  seed: int | str | None = None, stacked_deck: Sequence[Card] | None = None) -> MasonState:
        self.check_seats(names)
        deck = cast("Sequence[MasonCard] | None", stacked_deck)  # (a card of another deck is refused there)
        return MasonState.new(list(names), stacked_deck=deck, seed=None if deck is not None else seed, definition=self)

    def from_dict(self, data: Mapping[str, Any]) -> MasonState:
        return MasonState.from_dict(data, self)

    def dealt_again(self, state: GameState) -> MasonState:
        # A state keeps its seed or stacked deck and deals every round from it (R2.4).
        game = cast(MasonState, state)
        return MasonState.new([player.name for player in game.players], stacked_deck=game.stacked_deck,
                              seed=game.seed, definition=self)

    action_from_dict = staticmethod(actions.action_from_dict)
    action_to_dict = staticmethod(actions.action_to_dict)

    baseline_label = "random discards"

    def tally(self, state: MasonState) -> dict[str, int]:
        # A blocked round (R7.2) is the only one where nobody scored 0: the player who went out
        # adds 0 (R7.1), and any hand that still holds a card is worth at least 2 points.
        return {"rounds": len(state.round_turns), "turns": sum(state.round_turns),
                "blocked": sum(1 for points in state.round_scores if 0 not in points)}

    def tally_lines(self, totals: Mapping[str, int], games: int) -> list[str]:
        return [f"average turns per round: {totals.get('turns', 0) / max(totals.get('rounds', 0), 1):.1f}",
                f"blocked rounds: {totals.get('blocked', 0)} of {totals.get('rounds', 0)}"]

    def deck_preview(self, cards: Sequence[Card]) -> list[tuple[Said, list[Card]]]:
        """Each seat's first hand (R4.2), and the face-up card with 2 and with 3 players."""
        hands, _face_up, _stock = deal_layout(list(cards), MAX_SEATS)
        preview = [(said("Seat {seat}", seat=seat), hand) for seat, hand in enumerate(hands, start=1)]
        for seats in range(MIN_SEATS, MAX_SEATS + 1):
            face_up = deal_layout(list(cards), seats)[1]
            preview.append((said("Face up first with {count} players", count=seats), [face_up]))
        return preview

    def baseline_bot(self, rng: random.Random) -> MasonBot:
        """Draws and lays down by R8.1/R8.2 but discards a random card: what R8.3 is measured against."""
        return MasonBot(discard=random_discard_chooser(rng))


DEFINITION = MasonDefinition()
MASON = DEFINITION  # the name the house knows it by
