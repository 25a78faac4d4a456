"""Tables: games of any kind being played, and the people and computer players around them.
The web routes call these; each game's rules decide every rule (through the protocol); store.py
reads and writes the rows; every request is one transaction (``store.transaction``).

- ``errors``: the refusals (``TableError`` and its kinds), each with its HTTP status;
- ``seats``: seats and tokens (``Held``), hot-seat hand-overs, seats passed on to a rematch;
- ``join_codes``: own-device seats' codes: issue, look up (rate-limited), claim, release;
- ``play``: ``perform`` an action, computer turns, the hand-over button, a game's end;
- ``standins``: the idle rule, the computer standing in, and its lines in the log;
- ``lifecycle``: create, rematch, follow a rematch, abandon; the unfinished games.
"""

from .errors import (  # noqa: F401
    NO_OPEN_SEAT, RELEASED, STALE, ConfirmFirst, Conflict, Forbidden, GameNotFound, NotFound, Refused, StillChecking,
    TableError,
    TooMany,
)
from .join_codes import claim_seat, release_seat, restore_seat, seat_of_code  # noqa: F401
from .lifecycle import (  # noqa: F401
    AlreadySetUp, abandon, create_game, follow_rematch, rematch, set_up_with, unfinished_games,
)
from .play import Result, perform, play_computer_turns, reveal  # noqa: F401
from .seats import SPECTATOR, Held, Presence, SeatLine, SeatSpec, held_seats, presence, seat_lines  # noqa: F401
from .standins import idle_seat, log_lines, set_standin  # noqa: F401
