"""Tables: games of any kind being played, and the people and computer players around them; the
web's one door into the games and their rows. Its commands change a table in one transaction and
tell what happened once it commits (``news``); its queries return view models (``pages``,
``views``). Each game's rules decide every rule (through the protocol); the store reads and
writes the rows.

- ``errors``: the refusals (``TableError`` and its kinds), each with its HTTP status;
- ``holdings``: what each browser holds (its seats and host roles), behind the one key its
  cookie carries;
- ``seats``: seats and their tokens, hot-seat hand-overs, seats passed on to a rematch;
- ``join_codes``: own-device seats' codes: issue, look up (rate-limited), claim, release;
- ``saving``: a change read without the lock or under it, and saved with its news;
- ``play``: ``perform`` an action, computer turns, the hand-over button;
- ``standins``: the idle rule, the computer standing in, and its lines in the log;
- ``lifecycle``: set up, rematch, follow a rematch, abandon, and a guided first game's set-up;
- ``guides``: a guided first game's steps: only the step's move while the script lasts, its words
  on the table;
- ``replays``, ``pages``, ``views``: what the web shows (a table, a replay, the lists of games);
- ``imports``: an exported game's file, checked by the job runner and stored if its rules accept it;
- ``admins``, ``decks``: the admin's sessions, the stacked decks;
- ``news``: what the tables tell after a commit.
"""

from .admins import LoginRefused, is_admin, log_in, log_out  # noqa: F401
from .errors import (  # noqa: F401
    NO_OPEN_SEAT, RELEASED, STALE, ConfirmFirst, Conflict, Forbidden, GameNotFound, NotFound, Refused, StillChecking,
    TableError, TooMany,
)
from .holdings import NOBODY, Holder, KeyHolder, adopt_tokens, is_browser_key, let_go_of_finished_games, new_browser_key  # noqa: F401
from .join_codes import claim_seat, release_seat, restore_seat, seat_of_code  # noqa: F401
from .lifecycle import AlreadySetUp, SetUp, abandon, follow_rematch, rematch, set_up, start_guide  # noqa: F401
from .guides import GuideShown, guide_for, guided_games  # noqa: F401
from .pages import (  # noqa: F401
    MAX_STEPS_ASKED, SPECTATOR, definition_of, FinishedGame, Invitation, Looker, LogPage, ReplayStep, Solution, SolutionRefused, Step, UnfinishedGame,
    exists, export, finished, held, invitation, let_go_of_the_database, log_page, paced_steps, replay_step, seat_name,
    seat_to_release, show, solution, unfinished, version_of,
)
from .play import ActionForm, Done, perform, play_computer_turns, reveal  # noqa: F401
from .saving import MAX_ACTIONS  # noqa: F401
from .imports import ImportVerdict, check_import, import_game, import_verdict  # noqa: F401
from .replays import AlreadyHere, ReplayError  # noqa: F401
from .seats import Held, SeatLine, SeatSpec, strength_words  # noqa: F401
from ..store.models import HERE, OWN  # noqa: F401  (where a seat is played: the host's device, its own)
from .standins import set_standin  # noqa: F401
from .views import Ask, TableView  # noqa: F401

# The door: what the web (and the other doors) may name of the tables.
__all__ = [
    "ImportVerdict", "check_import", "import_verdict",
    "LoginRefused", "is_admin", "log_in", "log_out", "NO_OPEN_SEAT", "RELEASED", "STALE", "ConfirmFirst",
    "Conflict", "Forbidden", "GameNotFound", "NotFound", "Refused", "StillChecking", "TableError", "TooMany",
    "NOBODY", "Holder", "KeyHolder", "adopt_tokens", "is_browser_key", "let_go_of_finished_games",
    "new_browser_key", "claim_seat", "release_seat", "restore_seat", "seat_of_code", "AlreadySetUp", "SetUp",
    "abandon", "follow_rematch", "rematch", "set_up", "start_guide", "GuideShown", "guide_for", "guided_games", "MAX_STEPS_ASKED", "SPECTATOR", "definition_of",
    "FinishedGame", "Invitation", "Looker", "LogPage", "ReplayStep", "Solution", "SolutionRefused", "Step",
    "UnfinishedGame", "exists", "export", "finished", "held", "invitation", "let_go_of_the_database",
    "log_page", "paced_steps", "replay_step", "seat_name", "seat_to_release", "show", "solution", "unfinished",
    "version_of", "ActionForm", "Done", "perform", "play_computer_turns", "reveal", "MAX_ACTIONS",
    "AlreadyHere", "ReplayError", "import_game", "HERE", "OWN", "Held", "SeatLine", "SeatSpec", "set_standin", "strength_words",
    "Ask", "TableView",
]
