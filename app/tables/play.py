"""Playing: a browser's action applied through the game's protocol in one transaction, the
computer seats' turns after it, the hand-over screen's button, and the moment a game ends.

``perform`` is a pipeline: read the game, **authorise** the action (it is one of the game's, and
the browser holds the seat it acts for: 400, 403), check it is **fresh** (made on the game's
current version, the game still played, a shared device handed over, a move that asks first
confirmed: 409), **apply** it through the rules (409 out of turn, 422 otherwise) and let the
computer players answer, then **save** it. Nothing is written unless every step passes.

The game is read, checked and changed without the write lock, which is taken only to save: the
other tables' writes wait that long, not for the rules. If another write to this game came in
between, ``under_the_lock`` does it all again with the game read under the lock, and it is then
answered exactly as if it had waited for that write (a move on the older version is stale).

A seat's private move (an action of kind ``OWN``: arranging its own cards, ``Move.private``) is
that seat's own data, not a move of the game: it needs no current version (another seat's move
does not make it stale, nor it another seat's form), and it makes no new version, no line in the
action log and no change of ``updated_at`` (the idle rule's clock). It is limited per client
address (``OWN_MOVES_PER_MINUTE``, counted in each worker process: a refusal costs no write).
"""

from __future__ import annotations

from flask_babel import gettext

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .. import store
from ..core.autoplay import autoplay
from ..core.protocol import (
    NORMAL, OWN, Bot, GameDefinition, GameState, IllegalAction, Move, Outcome, SeatResult, plays_off_request,
)
from ..extensions import db
from ..solving import kept
from ..store.limits import own_moves
from ..store.models import PLAYING, GameRecord
from . import holdings, news
from .saving import Reading, save_and_score, under_the_lock
from .guides import check_guided
from .errors import RELEASED, STALE, ConfirmFirst, Conflict, Forbidden, TooMany, game_over, refusal
from .seats import Held, held_seats, needs_handover, seat_strength


def computer_players(record: GameRecord, off_request: bool = False) -> Callable[[int], Bot | None]:
    """The computer player of each AI seat (of the strength chosen for it at set-up) and of each
    AI stand-in (the normal one); None for a person. A bot that plays off the request path
    (``Bot.off_request``) plays only for the job runner (``off_request``): on a request it is as
    if a person were to move."""
    bots = [seat_bot(record, number) for number in range(len(record.seats))]
    if not off_request:
        bots = [None if plays_off_request(bot) else bot for bot in bots]
    return lambda seat: bots[seat] if 0 <= seat < len(bots) else None


def seat_bot(record: GameRecord, number: int) -> Bot | None:
    """The computer player that plays seat ``number`` now: the seat's own strength for a computer
    seat, the normal player standing in for an idle person; None for a person playing."""
    seat = record.seats[number]
    definition = store.definition_of(record)
    if seat.is_ai:
        return definition.bot_of(seat_strength(seat) or NORMAL) or definition.bot
    return definition.bot if seat.ai_standin else None


def play_computer_turns(state: GameState, record: GameRecord) -> list[Outcome]:
    """AI seats (and AI stand-ins) play at once, until a person's turn or the round's end (the
    next round waits for a person to press the button). A computer player that plays off the
    request path is queued for the job runner instead (in the caller's write transaction)."""
    outcomes = autoplay(state, computer_players(record))
    queue_computer_turn(state, record)
    return outcomes


def queue_computer_turn(state: GameState, record: GameRecord) -> None:
    """If a computer player that plays off the request path is to move, ask the job runner for
    its turn (in the caller's write transaction: the turn is never lost)."""
    turn = state.to_move()
    if turn is not None and plays_off_request(seat_bot(record, turn)):
        kept.ask_turn(record)


@dataclass
class Done:
    """A table after an applied action: the saved row, the state it is in now, and what the
    request worked out on the way (the seats the browser holds, the results of a game that is
    over), to answer from without working any of it out again."""

    record: GameRecord
    state: GameState
    held: Held
    finished: bool = False
    results: list[SeatResult] | None = None


# -- a browser's action ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ActionForm:
    """An action as a table's form posted it: the game's ``version`` the form was made on, the
    ``seat`` it acts for (None: a move of the table, the next deal), the action as plain data
    (read by the game's ``action_from_dict``), whether a move that asks first was ``confirmed``,
    and the client ``address`` (a seat's private moves are counted for it)."""

    version: int | None
    seat: int | None
    data: Mapping[str, Any] = field(default_factory=dict)
    confirmed: bool = True
    address: str = ""


@news.command
def perform(slug: str, holder: holdings.Holder, form: ActionForm) -> Done:
    """Apply a browser's action in one transaction, or raise a ``TableError`` having changed
    nothing (the pipeline: see the module's docstring). Without ``form.confirmed``, a move that
    asks first (``Move.confirm``) is not made: ``ConfirmFirst`` says which."""
    return under_the_lock(lambda locked: act(Reading.of(slug, locked), holder, form))


def act(reading: Reading, holder: holdings.Holder, form: ActionForm) -> Done:
    record = reading.record
    definition = store.definition_of(record)
    action, private, held = authorise(record, definition, holder, form, counted=not reading.locked)
    state = check_fresh(record, definition, action, private, held, form)
    guided = check_guided(record, definition, form.seat, dict(form.data))  # a guided game: only its step's move
    step = {} if guided is None else {"guide_step": guided}
    try:
        outcome = state.apply(form.seat, action)
    except IllegalAction as error:
        raise refusal(error, definition) from None
    if private:
        reading.write()
        store.save_private(record, state, **step)
        return Done(record, state, held)
    actions = [outcome] + autoplay(state, computer_players(record))
    reading.write()
    queue_computer_turn(state, record)
    # A new deal on a shared device starts with a hand-over screen, even for the player who
    # ended the last round: anyone may be holding the device after the round summary.
    changes: dict[str, Any] = dict(step, shown_seat=None) if form.seat is None else dict(step)
    results = reading.save(state, actions, **changes)
    news.tell(news.position_reached, record, state=state, address=form.address)
    return Done(record, state, held, finished=results is not None, results=results)


def authorise(record: GameRecord, definition: GameDefinition, holder: holdings.Holder, form: ActionForm,
              counted: bool) -> tuple[Any, bool, Held]:
    """The action the form names, whether it is a seat's private move, and what the browser
    holds: refused if it is no action of the game (400) or the browser does not hold the seat it
    acts for (403), or a private move comes faster than a person arranges cards (429;
    ``counted``: once a request, not again on its retry under the lock)."""
    try:
        action = definition.action_from_dict(form.data)
    except IllegalAction as error:
        raise refusal(error, definition) from None
    held = held_seats(record, holdings.held_hashes(holder, record))
    if form.seat is None and form.data.get("action") in definition.table_actions:
        if not held.at_table:
            raise Forbidden(gettext("Only the players at this table can do that."))
    elif form.seat is None or form.seat not in held:
        raise Forbidden(str(RELEASED) if form.seat in held.released else gettext("This browser does not hold that seat."))
    private = definition.action_kinds.get(type(action)) is OWN
    if private and counted and not own_moves.allow(form.address):
        raise TooMany(gettext("You are changing your cards faster than the table can keep up: wait a few seconds, "
                              "then go on. Your cards are as shown."))
    return action, private, held


def check_fresh(record: GameRecord, definition: GameDefinition, action: Any, private: bool, held: Held,
                form: ActionForm) -> GameState:
    """The game's state, if the action may be tried on it now: the game is still played, the form
    was made on its current version (a private move needs none), a shared device was handed to
    the seat first, and a move that asks first was confirmed (409, or ``ConfirmFirst``)."""
    if record.status != PLAYING:  # (first: a form of a finished game is not merely stale)
        raise Conflict(game_over(record.status))
    if form.version != record.version and not private:
        raise Conflict(str(STALE))
    state = store.load_state(record)
    if form.seat is not None and form.seat == state.to_move() and needs_handover(record, state, held):
        raise Conflict(gettext("Pass the device to %(name)s first.", name=state.label(form.seat)))
    if not form.confirmed:
        asking = move_asking_first(state.legal(form.seat), definition, action, form.data)
        if asking is not None:
            raise ConfirmFirst(asking)
    return state


def move_asking_first(moves: list[Move], definition: GameDefinition, action: Any,
                      action_data: Mapping[str, Any]) -> Move | None:
    """The move among ``moves`` that asks first (``Move.confirm``) whose kind of action the posted
    ``action`` is, however its form spelled it (any letter case, fields added): the move it
    equals, else the first of its kind. The move is known by the action the data names, not by
    how its button's value was written, so no spelling of a button gets past the question."""
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


@news.command
def reveal(slug: str, holder: holdings.Holder, form_version: int | None) -> Done:
    """The hand-over screen's button: show the current hot-seat player's hand on this device."""

    def show_hand(locked: bool) -> Done:
        reading = Reading.of(slug, locked)
        record = reading.record
        held = held_seats(record, holdings.held_hashes(holder, record))
        state = store.load_state(record)
        turn = state.to_move()
        if turn is None or turn not in held:
            raise Forbidden(gettext("This browser does not hold that seat."))
        if form_version != record.version:
            raise Conflict(gettext("The table changed; here it is now."))
        reading.write()
        reading.save(None, [], shown_seat=turn)
        return Done(record, state, held)

    return under_the_lock(show_hand)


# -- computer players off the request path ------------------------------------------------------------


def play_off_request_turns(slug: str, attempts: int = 5) -> None:
    """The turns of a computer player that plays off the request path (the job runner asks for
    them: ``news.turn_due``): chosen with no transaction open (a search may take seconds), then
    applied and saved under the game's lock if nobody moved meanwhile (else chosen again)."""
    for _attempt in range(attempts):
        record = store.find_game(slug)
        if record is None or record.status != PLAYING:
            return
        state = store.load_state(record)
        version = record.version
        db.session.rollback()
        chosen = autoplay(state, computer_players(record, off_request=True))
        if not chosen:
            return
        if apply_chosen(slug, version, chosen):
            return


@news.command
def apply_chosen(slug: str, version: int, chosen: list[Outcome]) -> bool:
    """Apply the actions ``chosen`` on game version ``version``, if it still is; whether it was."""
    record = store.lock_game(slug)
    if record is None or record.version != version or record.status != PLAYING:
        db.session.rollback()
        return False
    state = store.load_state(record)
    outcomes = [state.apply(outcome.seat, outcome.action) for outcome in chosen]
    save_and_score(record, state, outcomes)
    news.tell(news.position_reached, record, state=state, address="")
    return True
