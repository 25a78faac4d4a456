"""Playing: a browser's action applied through the game's protocol in one transaction, the
computer seats' turns after it, the hand-over screen's button, and the moment a game ends.

Every action goes through ``perform``, which checks in this order: the game exists (404), the
form is an action of this game (400, or 422 for a selection that is none), the browser holds the
seat it acts for (403), the form was made on the current version of the game (409), the game is
still being played (409), a shared device was handed over (409); then the rules apply the action
or refuse it (409 out of turn, 422 otherwise). Nothing is written unless all of them pass.

A seat's private move (an action of kind ``OWN``: arranging its own cards, ``Move.private``) is
that seat's own data, not a move of the game: it needs no current version (another seat's move
does not make it stale, nor it another seat's form), and it makes no new version, no line in the
action log and no change of ``updated_at`` (the idle rule's clock). It is written over the
version it was read at, as every write is, so nothing is lost between the two, and limited per
client address (``OWN_MOVES_PER_MINUTE``, counted in each worker process: a refusal costs no
write).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .. import records, store
from . import replays
from ..core.autoplay import autoplay
from ..core.protocol import (
    OWN, Bot, GameDefinition, GameState, IllegalAction, Move, Outcome, SeatResult, plays_off_request,
)
from ..extensions import db
from ..store.limits import own_moves
from ..store.models import PLAYING, GameRecord, utcnow
from ..solving import kept
from .errors import RELEASED, STALE, ConfirmFirst, Conflict, Forbidden, GameNotFound, TooMany, game_over, refusal
from .join_codes import end_join_codes
from .seats import Held, held_seats, needs_handover


def computer_players(record: GameRecord, off_request: bool = False) -> Callable[[int], Bot | None]:
    """The game's computer player for its AI seats and AI stand-ins; None for a person. A bot
    that plays off the request path (``Bot.off_request``) plays only for the job runner
    (``off_request``): on a request it is as if a person were to move."""
    bot = store.definition_of(record).bot
    if plays_off_request(bot) and not off_request:
        return lambda seat: None
    seats = record.seats
    return lambda seat: bot if seats[seat].is_ai or seats[seat].ai_standin else None


def play_computer_turns(state: GameState, record: GameRecord) -> list[Outcome]:
    """AI seats (and AI stand-ins) play at once, until a person's turn or the round's end (the
    next round waits for a person to press the button). A computer player that plays off the
    request path is queued for the job runner instead (in the caller's write transaction)."""
    outcomes = autoplay(state, computer_players(record))
    queue_computer_turn(state, record)
    return outcomes


def queue_computer_turn(state: GameState, record: GameRecord) -> None:
    """If a computer player that plays off the request path is to move, ask the job runner for
    its turn (in the caller's write transaction)."""
    turn = state.to_move()
    if turn is not None and plays_off_request(state.definition.bot) and (
            record.seats[turn].is_ai or record.seats[turn].ai_standin):
        kept.ask_turn(record)


@dataclass
class Result:
    """A table after an applied action: the saved row, the game, and what the request worked out
    on the way (the seats the browser holds, the results of a game that is over), to answer from
    without working any of it out again."""

    record: GameRecord
    game: GameState
    held: Held
    finished: bool = False
    results: list[SeatResult] | None = None


def game_to_change(slug: str) -> GameRecord:
    """The game ``slug``, locked for this request's write transaction (``GameNotFound``)."""
    record = store.lock_game(slug)
    if record is None:
        raise GameNotFound()
    return record


def game_as_read(slug: str) -> GameRecord:
    """The game ``slug`` as it is now, read without the write lock (``GameNotFound``)."""
    record = store.find_game(slug)
    if record is None:
        raise GameNotFound()
    return record


@store.transaction
def perform(slug: str, tokens: Mapping[str, str], form_version: int | None, seat: int | None,
            action_data: Mapping[str, Any], address: str = "", confirmed: bool = True) -> Result:
    """Apply a browser's action (plain data, as its form posted it) in one transaction, or
    raise TableError with nothing changed. ``seat`` None: a move of the table (the next deal).
    ``address``: the client's, which a seat's private moves are counted for. Without
    ``confirmed``, a move that asks first (``Move.confirm``) is not made: ``ConfirmFirst`` says
    which. The move is known by the action the data names, not by how its button's value was
    written, so no spelling of a button gets past the question.

    The game is read, checked and changed (the rules, then the computer players) before the
    write lock is taken, so that the lock is held only while the change is written: the other
    tables' writes wait that long, not for the rules. If another write to this game came in
    between, the action is done again from the start under the lock, and is then answered
    exactly as if it had waited for that write (a move on the older version is stale)."""
    return written_over_the_read(lambda locked: apply_action(
        slug, tokens, form_version, seat, action_data, address, confirmed, locked=locked))


def written_over_the_read(change: Callable[[bool], Result]) -> Result:
    """``change(False)``: a change worked out from the game read without the write lock, which
    ``store.start_change`` takes to write it; if another write came between, ``change(True)``:
    the same again, read under the lock, so it is answered as if it had waited for that write."""
    try:
        return change(False)
    except store.ConcurrentUpdate:
        db.session.rollback()
    return change(True)


def move_asking_first(moves: list[Move], definition: GameDefinition, action: Any,
                      action_data: Mapping[str, Any]) -> Move | None:
    """The move among ``moves`` that asks first (``Move.confirm``) whose kind of action the posted
    ``action`` is, however its form spelled it (any letter case, fields added): the move it
    equals, else the first of its kind."""
    of_its_kind = []
    for move in moves:
        if not move.confirm:
            continue
        try:
            asked = definition.action_from_dict(move.as_dict(
                action_data.get("cards") or (), action_data.get(move.target) if move.target else None))
        except IllegalAction:
            continue
        if asked == action:
            return move
        if type(asked) is type(action):
            of_its_kind.append(move)
    return of_its_kind[0] if of_its_kind else None


def apply_action(slug: str, tokens: Mapping[str, str], form_version: int | None, seat: int | None,
                 action_data: Mapping[str, Any], address: str, confirmed: bool, locked: bool = False) -> Result:
    """``perform``, once: the game read without the write lock (``store.start_change`` takes it
    to write: ``ConcurrentUpdate`` if another write came between), or, if ``locked``, read
    under it (nothing can come between)."""
    record = game_to_change(slug) if locked else game_as_read(slug)
    definition = store.definition_of(record)
    try:
        action = definition.action_from_dict(action_data)
    except IllegalAction as error:
        raise refusal(error) from None
    held = held_seats(record, tokens)
    if seat is None and action_data.get("action") in definition.table_actions:
        if not held.at_table:
            raise Forbidden("Only the players at this table can do that.")
    elif seat is None or seat not in held:
        raise Forbidden(RELEASED if seat in held.released else "This browser does not hold that seat.")
    private = definition.action_kinds.get(type(action)) is OWN
    if private and not locked and not own_moves.allow(address):  # (counted once, not again on the retry)
        raise TooMany("You are changing your cards faster than the table can keep up: wait a few seconds, "
                      "then go on. Your cards are as shown.")
    if record.status != PLAYING:  # (first: a form of a finished game is not merely stale)
        raise Conflict(game_over(record.status))
    if form_version != record.version and not private:
        raise Conflict(STALE)
    state = store.load_state(record)
    if seat is not None and seat == state.to_move() and needs_handover(record, state, held):
        raise Conflict(f"Pass the device to {state.label(state.to_move())} first.")
    if not confirmed:
        asking = move_asking_first(state.legal(seat), definition, action, action_data)
        if asking is not None:
            raise ConfirmFirst(asking)
    try:
        outcome = state.apply(seat, action)
    except IllegalAction as error:
        raise refusal(error) from None
    if private:
        if not locked:
            store.start_change(record)
        store.save_private(record, state)
        return Result(record, state, held)
    actions = [outcome] + autoplay(state, computer_players(record))
    if not locked:
        store.start_change(record)
    queue_computer_turn(state, record)
    # The new position's question (a solver's verdict), asked in this transaction: the job
    # runner works it out, and the table shows "checking..." until then.
    kept.ask_for_table(record, state, address)
    # A new deal on a shared device starts with a hand-over screen, even for the player who
    # ended the last round: anyone may be holding the device after the round summary.
    extra = {"shown_seat": None} if seat is None else {}
    try:
        results = save_and_score(record, state, actions, **extra)
    except store.ConcurrentUpdate:
        if not locked:
            raise  # (perform does it again under the lock)
        raise Conflict(STALE) from None
    return Result(record, state, held, finished=results is not None, results=results)


def save_and_score(record: GameRecord, state: GameState, actions: list[Outcome], **changes) -> list[SeatResult] | None:
    """Save the game; if it just ended, record the results in the same transaction (and then
    the score table's file follows, in the background). Returns the results of a game that is
    over (worked out once), None while it is played."""
    if record.shown_seat is not None and any(outcome.seat not in (None, record.shown_seat) for outcome in actions):
        # Another seat moved (a computer stand-in, a seat on another device...): whoever holds a
        # shared device now, the next hot-seat turn starts with the hand-over screen again.
        changes.setdefault("shown_seat", None)
    results = state.results() if state.is_over() else None
    ended = results is not None and record.status == PLAYING
    if ended:
        finish(record, state, results)
    store.save_game(record, state, actions, results=results, **changes)
    if ended:
        after_finish(record)
    return results


def finish(record: GameRecord, state: GameState, results: list[SeatResult]) -> None:
    """The moment a game ends (R7.4): its ``results`` (``state.results()``), in the caller's
    transaction (the game row keeps them too: ``store.state_columns``), with the time it was
    played (from its first action: the table's timer). Its join codes stop working."""
    started = replays.first_action_at(record) if record.id is not None else None
    seconds = max(0, int((utcnow() - started).total_seconds())) if started is not None else 0
    records.record_results(store.definition_of(record), results, seconds)
    end_join_codes(record)


def after_finish(record: GameRecord) -> None:
    """After the commit of a game's end: what follows the results (the score table's file,
    written in the background, so a game's end costs the same however big the table)."""
    records.after_results(store.definition_of(record))


@store.transaction
def reveal(slug: str, tokens: Mapping[str, str], form_version: int | None) -> Result:
    """The hand-over screen's button: show the current hot-seat player's hand on this device."""

    def show_hand(locked: bool) -> Result:
        record = game_to_change(slug) if locked else game_as_read(slug)
        held = held_seats(record, tokens)
        state = store.load_state(record)
        turn = state.to_move()
        if turn is None or turn not in held:
            raise Forbidden("This browser does not hold that seat.")
        if form_version != record.version:
            raise Conflict("The table changed; here it is now.")
        if not locked:
            store.start_change(record)
        store.save_game(record, None, [], shown_seat=turn)
        return Result(record, state, held)

    return written_over_the_read(show_hand)
