"""The one loop that lets computer players play: the web after every action, the terminals and
the simulator all call ``autoplay``."""

from __future__ import annotations

from collections.abc import Callable

from .names import is_computer_name
from .protocol import Bot, GameState, Outcome

BotFor = Callable[[int], Bot | None]
"""Which bot plays a seat: None for a person."""

# A game whose bots have not finished after this many actions is broken: stop rather than hang.
MAX_ACTIONS = 100_000


class BotsDoNotFinish(RuntimeError):
    """The bots made ``MAX_ACTIONS`` actions without reaching a human's turn or the end."""


def autoplay(state: GameState, bot_for: BotFor, *, deal_on: bool = False,
             on_outcome: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Apply the bots' actions while a computer seat is to move; return the outcomes in order.

    ``bot_for(seat)`` is the bot playing that seat, or None for a person. Between rounds
    (``to_move()`` is None) the loop stops, unless ``deal_on``: then it makes the table's first
    move (``legal(None)[0]``, dealing the next round), as a simulation of bots alone does.
    ``on_outcome`` sees each outcome the moment it is applied (a terminal prints it)."""
    outcomes: list[Outcome] = []
    # The simulator's hot loop: bound methods are looked up once.
    is_over, to_move, apply, record = state.is_over, state.to_move, state.apply, outcomes.append
    while not is_over():
        seat = to_move()
        if seat is None:
            if not deal_on:
                break
            moves = state.legal(None)
            if not moves:
                break
            action = state.definition.action_from_dict(moves[0].as_dict())
        else:
            bot = bot_for(seat)
            if bot is None:
                break
            action = bot.choose(state, seat)
        outcome = apply(seat, action)
        record(outcome)
        if on_outcome is not None:
            on_outcome(outcome)
        if len(outcomes) >= MAX_ACTIONS:
            raise BotsDoNotFinish(f"{state.definition.name}: {MAX_ACTIONS} computer actions without an end")
    return outcomes


def computer_seats(state: GameState) -> BotFor:
    """``bot_for`` that plays every seat named AI with the game's computer player."""
    bot = state.definition.bot
    names = state.names
    return lambda seat: bot if bot is not None and is_computer_name(names[seat]) else None


def one_seat(seat: int, bot: Bot) -> BotFor:
    """``bot_for`` that plays ``seat`` alone with ``bot``: ``autoplay`` then plays that seat's
    turn (all of it: a rummy turn is several actions) and stops at the next seat's."""
    return lambda other: bot if other == seat else None
