"""The computer standing in for an idle person: the idle rule, the host's switch, and which lines
of the game's log the computer made for whom."""

from __future__ import annotations

from flask_babel import gettext

import json

from .. import store
from ..core.protocol import Event, GameState
from ..store.models import PLAYING, GameRecord, utcnow
from .errors import Conflict, Forbidden, TableError, game_over
from . import holdings, news
from .join_codes import host_seat
from .play import play_computer_turns
from .saving import save_and_score
from .seats import Held, held_seats


def idle_turn(record: GameRecord, state: GameState, idle_seconds: int) -> int | None:
    """The idle rule: the seat of the person whose turn has waited ``idle_seconds`` or longer,
    whom the computer may stand in for; None if there is none (or the game has no computer
    player)."""
    turn = state.to_move()
    if turn is None or state.definition.bot is None:
        return None
    seat = record.seats[turn]
    if seat.is_ai or seat.ai_standin:
        return None
    waited = (utcnow() - record.updated_at).total_seconds()
    return turn if waited >= idle_seconds else None


def idle_seat(record: GameRecord, state: GameState, held: Held, idle_seconds: int) -> int | None:
    """The idle seat the host may let the computer play, if this browser does not hold it."""
    turn = idle_turn(record, state, idle_seconds)
    return None if turn in held else turn


@news.command
def set_standin(slug: str, holder: holdings.Holder, number: int, on: bool, idle_seconds: int) -> None:
    """The host lets the AI play an idle person's turns; the person (or host) stops it."""
    record, seat = host_seat(slug, number)
    held = held_seats(record, holdings.held_hashes(holder, record))
    if seat.is_ai:
        raise TableError(gettext("That seat is already a computer player."))
    if record.status != PLAYING:
        raise Conflict(game_over(record.status))
    state = store.load_state(record)
    if on:
        if not held.host:
            raise Forbidden(gettext("Only the host can let the AI stand in."))
        if state.definition.bot is None:
            raise TableError(gettext("%(game)s has no computer player to stand in.", game=state.definition.name))
        if idle_turn(record, state, idle_seconds) != number:
            raise Conflict(gettext("%(name)s is not idle: the AI can stand in after %(num)s seconds of waiting on their turn.", name=seat.name, num=idle_seconds))
        seat.ai_standin = True
        record.standins = standin_spans(record, state, number, True)
        save_and_score(record, state, play_computer_turns(state, record), standins=record.standins)
    else:
        if not held.host and number not in held:
            raise Forbidden(gettext("Only the host or the seat's player can stop the AI."))
        if not seat.ai_standin:  # (a form posted twice, or an old page): nothing to stop, nothing saved
            return
        seat.ai_standin = False
        save_and_score(record, None, [], standins=standin_spans(record, state, number, False))


def standin_spans(record: GameRecord, state: GameState, number: int, on: bool) -> str:
    """``record.standins`` with a span of the game's log opened (or closed) for seat ``number``
    at the log's current end: the lines the computer made for that person."""
    spans = json.loads(record.standins or "{}")
    mine = spans.setdefault(str(number), [])
    end = state.log_total
    if on:
        mine.append([end, None])
    elif mine and mine[-1][1] is None:
        mine[-1][1] = end
    return json.dumps(spans, separators=(",", ":"))


def standin_lines(record: GameRecord, first: int, end: int) -> dict[int, int]:
    """Which lines of the game's log from ``first`` to ``end`` the computer made for a person:
    {line index: seat}."""
    lines = {}
    for seat, spans in json.loads(record.standins or "{}").items():
        for start, stop in spans:
            for index in range(max(first, start), min(end, end if stop is None else stop)):
                lines[index] = int(seat)
    return lines


def log_lines(record: GameRecord, state: GameState, log: list[Event], first: int = 0) -> list[Event]:
    """The log lines ``log`` (the game's log from line ``first``), each with ``by``: the label of
    the person the computer made it for, or None; and ``number``: its number in the game's log."""
    by_computer = standin_lines(record, first, first + len(log)) if record.standins else {}
    return [dict(event, by=state.label(by_computer[index]) if index in by_computer else None, number=index + 1)
            for index, event in enumerate(log, start=first)]
