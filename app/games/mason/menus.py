"""The menus' words (R9). The terminal prints them and the web shows them as buttons, in the
same order; typed answers are read by ``app.core.menus`` (R9.1, R5.5)."""

from __future__ import annotations

from app.core.menus import NotAChoice, parse_choice, parse_selection
from app.core.protocol import N_

# (N_: each is also a word of the web's, in the games' catalogue)
MENU_A = (
    N_("View scores"),
    N_("Play 2-player game"),
    N_("Play 3-player game"),
    N_("Play 2-player game with stacked deck"),
    N_("Play 3-player game with stacked deck"),
    N_("Quit"),
)
MENU_B = (N_("New player"), N_("Returning player"))
MENU_D = ("Draw from stock pile", "Draw from discard pile")
MENU_E = ("Play down cards", "Discard")

# Menu A answer -> (players, stacked deck?)
GAME_OPTIONS = {2: (2, False), 3: (3, False), 4: (2, True), 5: (3, True)}
VIEW_SCORES, QUIT = 1, 6

__all__ = ["GAME_OPTIONS", "MENU_A", "MENU_B", "MENU_D", "MENU_E", "QUIT", "VIEW_SCORES", "NotAChoice",
           "parse_choice", "parse_selection"]
