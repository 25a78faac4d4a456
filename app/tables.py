"""Tables: creating games of any kind, applying a browser's action, computer turns, game end,
rematches and seats. The web routes call these functions; each game's rules decide every rule
(through the protocol); store.py reads and writes the rows.

Every action goes through ``perform``, which checks in this order: the game exists (404), the
form is an action of this game (400, or 422 for a selection that is none), the browser holds the
seat it acts for (403), the form was made on the current version of the game (409), the game is
still being played (409), a shared device was handed over (409); then the rules apply the action
or refuse it (409 out of turn, 422 otherwise). Nothing is written unless all of them pass, and
everything a request does is one transaction (``store.transaction``: a refusal rolls it back).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Callable, Mapping

import sqlalchemy as sa
from flask import current_app
from sqlalchemy.orm import selectinload

from . import limits, records, store
from .core.autoplay import autoplay
from .core.cards import Card
from .core.protocol import (
    BadAction, Bot, GameDefinition, GameIsOver, GameState, IllegalAction, NotYourTurn, Outcome,
)
from .extensions import db
from .models import ABANDONED, FINISHED, HERE, OWN, PLAYING, GameRecord, SeatRecord, utcnow
from .refusal import Refusal

JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
JOIN_CODE_LENGTH = 6


class TableError(Refusal):
    """An action or request at a table that is refused."""


class NotFound(TableError):
    status = 404


class GameNotFound(NotFound):
    """The game asked for does not exist (not a table to show the message on)."""

    def __init__(self, message: str = "There is no such game."):
        super().__init__(message)


class Forbidden(TableError):
    status = 403


class Conflict(TableError):
    """Stale view, out of turn, or a game that is over: the fresh table is shown."""

    status = 409


class Refused(TableError):
    """The rules refused the action (R6.3 and the like)."""

    status = 422


class TooMany(TableError):
    """A client address over one of its limits (wrong join codes, games set up)."""

    status = 429


STALE = "The table changed before your action arrived, so nothing was done. Here it is now."
RELEASED = "The host released your seat: ask them for its new code to play on."
NO_OPEN_SEAT = ("No open seat has that code. Check the code, or ask the host for a new one "
                "(a code works once, and expires when its game ends or after a day).")


def refusal(error: IllegalAction) -> TableError:
    """The door's answer to a rules refusal: a bad request, a conflict or a refusal."""
    if isinstance(error, BadAction):
        return TableError(str(error))
    if isinstance(error, (NotYourTurn, GameIsOver)):
        return Conflict(str(error))
    return Refused(str(error))


@dataclass
class SeatSpec:
    name: str
    is_ai: bool = False
    device: str = HERE


@dataclass
class Held:
    """The seats a browser holds in one game, proven by tokens from its session, and whether it
    is the game's host (the browser that set it up)."""

    seats: set[int] = field(default_factory=set)
    host: bool = False
    # Seats this browser once held (it still has their tokens) that the host has released since.
    released: set[int] = field(default_factory=set)

    def __contains__(self, seat: object) -> bool:
        return seat in self.seats

    @property
    def at_table(self) -> bool:
        """May make the table's moves (deal the next round, rematch): a seat holder or the host
        (in a game of computer seats only, nobody else could)."""
        return bool(self.seats) or self.host


def held_seats(record: GameRecord, tokens: Mapping[str, str]) -> Held:
    """Which seats of ``record`` the presented ``tokens`` ({seat number: token, "host": token})
    really hold."""
    held = Held(host=store.token_matches(tokens.get("host"), record.host_token_hash))
    for seat in record.seats:
        token = tokens.get(str(seat.number))
        if store.token_matches(token, seat.token_hash):
            held.seats.add(seat.number)
        elif token:  # only the server writes tokens into the signed session: this seat was released
            held.released.add(seat.number)
    return held


def is_host(record: GameRecord, tokens: Mapping[str, str]) -> bool:
    return store.token_matches(tokens.get("host"), record.host_token_hash)


# -- creating games ------------------------------------------------------------------------------


@store.transaction
def create_game(definition: GameDefinition, specs: list[SeatSpec], *, options: Mapping[str, Any] | None = None,
                deck: list[Card] | None = None, deck_name: str | None = None, claim: set[int] | None = None,
                in_transaction: bool = False, creator: str | None = None) -> tuple[GameRecord, dict]:
    """Create a game; return it with the tokens of the seats this browser now holds.

    ``claim`` lists the seats this browser takes (by default every hot-seat seat); every other
    human seat gets a join code for its own device. Computer seats that start play at once.
    ``creator``: the client address setting the game up, held to ``GAMES_PER_HOUR`` (TooMany)."""
    options = definition.validate_options(options or {})
    state = definition.new_state([spec.name for spec in specs], options=options,
                                 seed=None if deck else secrets.randbits(63), stacked_deck=deck)
    if claim is None:
        claim = {number for number, spec in enumerate(specs) if spec.device == HERE}
    tokens: dict[str, str] = {}
    record = store.new_record(definition, state, options=options, deck=[card.id for card in deck] if deck else None,
                              deck_name=deck_name)
    host_token = store.new_token()
    record.host_token_hash = store.hash_token(host_token)
    tokens["host"] = host_token
    for number, spec in enumerate(specs):
        seat = SeatRecord(number=number, name=state.names[number], is_ai=spec.is_ai, device=spec.device)
        if spec.is_ai:
            pass
        elif number in claim:
            tokens[str(number)] = token = store.new_token()
            seat.token_hash = store.hash_token(token)
        else:
            issue_join_code(seat)
        record.seats.append(seat)
    if creator is not None:
        count_game_set_up(creator)  # begins the write transaction
    elif not in_transaction:  # (a rematch creates its game inside its own locked transaction)
        store.begin_write()
    actions = play_computer_turns(state, record)  # each computer action makes a version
    store.insert_game(record, state, actions)
    if state.is_over():
        finish(record, state)
    if not in_transaction:
        db.session.commit()
        if state.is_over():
            after_finish(record)
    return record, tokens


def count_game_set_up(address: str) -> None:
    """Count a game set up from ``address``, or refuse it (TooMany) past ``GAMES_PER_HOUR``: every
    game can add names to the score table, which must not grow without limit. Starts the write
    transaction that creates the game, so the count and the game are one."""
    limit = current_app.config["GAMES_PER_HOUR"]
    limits.begin_counting()
    if limits.recent(limits.GAME_SET_UP, address, 3600) >= limit:
        raise TooMany(f"This device has set up {limit} games in the last hour: finish or resume one "
                      "of them, or wait a while before setting up another.")
    limits.count(limits.GAME_SET_UP, address, 3600)


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def issue_join_code(seat: SeatRecord) -> None:
    """A fresh join code for an own-device seat nobody holds, valid for ``JOIN_CODE_HOURS``."""
    seat.token_hash = None
    seat.join_code = new_join_code()
    seat.code_expires_at = utcnow() + timedelta(hours=current_app.config["JOIN_CODE_HOURS"])


def code_is_live(seat: SeatRecord) -> bool:
    return seat.join_code is not None and (seat.code_expires_at is None or seat.code_expires_at > utcnow())


# -- playing ---------------------------------------------------------------------------------


def computer_players(record: GameRecord) -> Callable[[int], Bot | None]:
    """The game's computer player for its AI seats and AI stand-ins; None for a person."""
    bot = store.definition_of(record).bot
    seats = record.seats
    return lambda seat: bot if seats[seat].is_ai or seats[seat].ai_standin else None


def play_computer_turns(state: GameState, record: GameRecord) -> list[Outcome]:
    """AI seats (and AI stand-ins) play at once, until a person's turn or the round's end (the
    next round waits for a person to press the button)."""
    return autoplay(state, computer_players(record))


@dataclass
class Result:
    """A table after an applied action: the saved row and the game, to answer from."""

    record: GameRecord
    game: GameState
    finished: bool = False


@store.transaction
def perform(slug: str, tokens: Mapping[str, str], form_version: int | None, seat: int | None,
            action_data: Mapping[str, Any]) -> Result:
    """Apply a browser's action (plain data, as its form posted it) in one transaction, or
    raise TableError with nothing changed. ``seat`` None: a move of the table (the next deal)."""
    record = store.lock_game(slug)
    if record is None:
        raise GameNotFound()
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
    if form_version != record.version:
        raise Conflict(STALE)
    if record.status != PLAYING:
        raise Conflict("This game is over.")
    state = store.load_state(record)
    if seat is not None and seat == state.to_move() and needs_handover(record, state, held):
        raise Conflict(f"Pass the device to {state.label(state.to_move())} first.")
    try:
        outcome = state.apply(seat, action)
    except IllegalAction as error:
        raise refusal(error) from None
    actions = [outcome] + play_computer_turns(state, record)
    # A new deal on a shared device starts with a hand-over screen, even for the player who
    # ended the last round: anyone may be holding the device after the round summary.
    extra = {"shown_seat": None} if seat is None else {}
    try:
        save_and_score(record, state, actions, **extra)
    except store.ConcurrentUpdate:
        raise Conflict(STALE) from None
    return Result(record, state, finished=state.is_over())


def save_and_score(record: GameRecord, state: GameState, actions: list[Outcome], **changes) -> None:
    """Save the game; if it just ended, record the results in the same transaction (and then
    the score table's file follows, in the background)."""
    if record.shown_seat is not None and any(outcome.seat not in (None, record.shown_seat) for outcome in actions):
        # Another seat moved (a computer stand-in, a seat on another device...): whoever holds a
        # shared device now, the next hot-seat turn starts with the hand-over screen again.
        changes.setdefault("shown_seat", None)
    ended = state.is_over() and record.status == PLAYING
    if ended:
        finish(record, state)
    store.save_game(record, state, actions, **changes)
    if ended:
        after_finish(record)


def finish(record: GameRecord, state: GameState) -> None:
    """The moment a game ends (R7.4): its results, in the caller's transaction (the game row
    keeps them too: ``store.state_columns``). Its join codes stop working: nobody needs a seat
    at a finished table."""
    records.record_results(store.definition_of(record), state.results())
    for seat in record.seats:
        seat.join_code = seat.code_expires_at = None


def after_finish(record: GameRecord) -> None:
    """After the commit of a game's end: what follows the results (the score table's file,
    written in the background, so a game's end costs the same however big the table)."""
    records.after_results(store.definition_of(record))


@store.transaction
def reveal(slug: str, tokens: Mapping[str, str], form_version: int | None) -> Result:
    """The hand-over screen's button: show the current hot-seat player's hand on this device."""
    record = store.lock_game(slug)
    if record is None:
        raise GameNotFound()
    held = held_seats(record, tokens)
    state = store.load_state(record)
    turn = state.to_move()
    if turn is None or turn not in held:
        raise Forbidden("This browser does not hold that seat.")
    if form_version != record.version:
        raise Conflict("The table changed; here it is now.")
    store.save_game(record, None, [], shown_seat=turn)
    return Result(record, state)


def hot_seat_humans(record: GameRecord, held: Held) -> list[int]:
    return [s.number for s in record.seats if s.device == HERE and not s.is_ai and s.number in held]


def needs_handover(record: GameRecord, state: GameState, held: Held) -> bool:
    """Hot-seat privacy: with two or more people sharing this device, a turn starts with a
    hand-over screen naming the player, until they press the button."""
    turn = state.to_move()
    return (turn is not None and turn in held and record.seats[turn].device == HERE
            and len(hot_seat_humans(record, held)) > 1 and record.shown_seat != turn)


def seat_to_show(record: GameRecord, state: GameState, held: Held) -> int | None:
    """Whose hand this browser may see now (None: no hand, as a spectator sees the table)."""
    turn = state.to_move()
    if turn is not None and turn in held:
        return None if needs_handover(record, state, held) else turn
    own = sorted(n for n in held.seats if record.seats[n].device == OWN)
    if own:
        return own[0]
    here = hot_seat_humans(record, held)
    if len(here) == 1:
        return here[0]
    return None  # several people share this device: show no hand between their turns


def idle_seat(record: GameRecord, state: GameState, held: Held, idle_seconds: int) -> int | None:
    """The seat whose turn has been waiting longer than ``idle_seconds``, if it is a person's
    that this browser does not hold: the host may let the computer play it."""
    turn = state.to_move()
    if turn is None or state.definition.bot is None:
        return None
    seat = record.seats[turn]
    if seat.is_ai or seat.ai_standin or turn in held:
        return None
    waited = (utcnow() - record.updated_at).total_seconds()
    return turn if waited >= idle_seconds else None


# -- game end --------------------------------------------------------------------------------


def unfinished_games(limit: int = 50) -> list[GameRecord]:
    """The most recently played unfinished games, with their seats (one query for all of them)."""
    return list(db.session.scalars(
        sa.select(GameRecord).where(GameRecord.status == PLAYING).options(selectinload(GameRecord.seats))
        .order_by(GameRecord.updated_at.desc()).limit(limit)))


@store.transaction
def rematch(slug: str, tokens: Mapping[str, str]) -> tuple[GameRecord, dict]:
    """A new game with the same players, seats, options and stacked deck (a shuffled game is
    reshuffled).

    Every seat somebody holds passes to its holder at once (``hand_on_seats``): no join code
    exists for it, so nobody else can take it. This browser gets its seats now; the others follow
    with ``follow_rematch`` (their old table links to the new one)."""
    record = store.lock_game(slug)
    if record is None:
        raise GameNotFound()
    if not held_seats(record, tokens).at_table:
        raise Forbidden("Only the players at this table can start a rematch.")
    if record.status != FINISHED:
        raise Conflict("The game is still being played.")
    if record.rematch_slug:
        return follow_rematch(slug, tokens)
    specs = [SeatSpec(s.name, s.is_ai, s.device) for s in record.seats]
    # The new game and the old game's link to it are one transaction, made while the old game
    # is locked: a doubled Rematch click (or both players at once) makes one rematch, not two.
    new_record, _tokens = create_game(store.definition_of(record), specs, options=store.options_of(record),
                                      deck=store.stacked_deck_of(record), deck_name=record.deck_name,
                                      claim=set(), in_transaction=True)
    hand_on_seats(record, new_record)
    new_tokens, _lost = carry_seats(record, new_record, tokens)
    store.save_game(record, None, [], rematch_slug=new_record.slug)
    if new_record.status == FINISHED:
        after_finish(new_record)
    return new_record, new_tokens


@store.transaction
def follow_rematch(slug: str, tokens: Mapping[str, str]) -> tuple[GameRecord, dict]:
    """Take, in the rematch, the seats this browser held in the finished game. A browser whose
    seats are all gone (the host released them in the rematch) is told so (Conflict)."""
    record = store.lock_game(slug)
    if record is None or not record.rematch_slug:
        raise NotFound("There is no rematch of this game.")
    if not held_seats(record, tokens).at_table:
        raise Forbidden("Only the players at this table can join its rematch.")
    new_record = store.find_game(record.rematch_slug)
    new_tokens, lost = carry_seats(record, new_record, tokens)
    db.session.commit()  # nothing was written: the seats were handed on when the rematch was made
    if lost and not any(key != "host" for key in new_tokens):
        names = ", ".join(new_record.seats[number].name for number in sorted(lost))
        raise Conflict(f"Your seat in the rematch ({names}) is no longer yours: the host released it. "
                       "Ask the host for its new code to join, or watch the rematch.")
    return new_record, new_tokens


def hand_on_seats(old: GameRecord, new: GameRecord) -> None:
    """Give each seat of the rematch ``new`` to whoever holds it in ``old``, and the host role to
    the old host: the new token hashes are made now from the old ones, so only a browser that
    proves the old token can learn the new one (``carry_seats``). A seat nobody held keeps the
    fresh join code ``create_game`` gave it."""
    new.host_token_hash = store.hash_token(successor_token(old.host_token_hash, new.slug, "host"))
    for old_seat, seat in zip(old.seats, new.seats):
        if seat.is_ai or old_seat.token_hash is None:
            continue
        seat.token_hash = store.hash_token(successor_token(old_seat.token_hash, new.slug, str(seat.number)))
        seat.join_code = seat.code_expires_at = None


def carry_seats(old: GameRecord, new: GameRecord, tokens: Mapping[str, str]) -> tuple[dict, set[int]]:
    """The tokens, in the rematch ``new``, of the seats (and host role) this browser holds in
    ``old``, and the numbers of its seats that are no longer its own there (released since).

    A token is derived from the old token's hash (``successor_token``), so every answer to a
    doubled Rematch or follow carries the same tokens: whichever answer's cookie the browser
    keeps, it holds its seats."""
    carried: dict[str, str] = {}
    lost: set[int] = set()
    held = held_seats(old, tokens)
    if held.host:
        token = successor_token(store.hash_token(tokens["host"]), new.slug, "host")
        if store.token_matches(token, new.host_token_hash):
            carried["host"] = token
    for number in held.seats:
        seat = new.seats[number]
        token = successor_token(store.hash_token(tokens[str(number)]), new.slug, str(number))
        if store.token_matches(token, seat.token_hash):
            carried[str(number)] = token
        elif not seat.is_ai:
            lost.add(number)
    return carried, lost


def successor_token(old_token_hash: str, new_slug: str, key: str) -> str:
    """The token of seat ``key`` (or "host") in the rematch ``new_slug``, from the hash of its
    token in the finished game: an HMAC with the secret key, so only the server can make it."""
    secret = str(current_app.config["SECRET_KEY"]).encode()
    digest = hmac.new(secret, f"rematch|{new_slug}|{key}|{old_token_hash}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:store.TOKEN_BYTES]).decode().rstrip("=")


# -- seats on their own devices (LAN play) --------------------------------------------------------


def normal_code(code: object) -> str | None:
    """A typed join code as codes are stored (upper case, without spaces or dashes), or None if
    it cannot be one: the alphabet and the length are checked before any query."""
    if not isinstance(code, str) or len(code) > 40:
        return None
    code = code.strip().upper().replace(" ", "").replace("-", "")
    if len(code) != JOIN_CODE_LENGTH or not all(char in JOIN_CODE_ALPHABET for char in code):
        return None
    return code


def find_seat_by_code(code: object) -> SeatRecord | None:
    """The open seat a join code names: the code has not expired and its game is being played."""
    code = normal_code(code)
    if code is None:
        return None
    seat = db.session.scalar(sa.select(SeatRecord).where(SeatRecord.join_code == code))
    if seat is None or not code_is_live(seat) or seat.game.status != PLAYING:
        return None
    return seat


def look_up_code(code: object, address: str) -> SeatRecord | None:
    """``find_seat_by_code`` for a client address, which may try ``JOIN_MAX_FAILURES`` wrong codes
    in ``JOIN_FAILURE_WINDOW_SECONDS``; after that every code (even a right one) gets TooMany until
    the window has passed. A wrong code is counted and committed at once; a right one leaves the
    write transaction open for the caller (a claim is made in it)."""
    config = current_app.config
    window = config["JOIN_FAILURE_WINDOW_SECONDS"]
    limits.begin_counting()
    if limits.recent(limits.WRONG_JOIN_CODE, address, window) >= config["JOIN_MAX_FAILURES"]:
        raise TooMany(f"Too many wrong codes from this device: try again in {limits.minutes(window)} minutes.")
    seat = find_seat_by_code(code)
    if seat is None:
        limits.count(limits.WRONG_JOIN_CODE, address, window)
        db.session.commit()
    return seat


@store.transaction
def seat_of_code(code: str, address: str) -> dict | None:
    """What a join code would claim (a link's preview: nothing is claimed), or None: the seat's
    number and name and every seat's name. A wrong code counts against ``address``."""
    seat = look_up_code(code, address)
    found = None
    if seat is not None:
        found = {"number": seat.number, "name": seat.name, "names": [s.name for s in seat.game.seats]}
    db.session.commit()  # (a right code wrote nothing)
    return found


@store.transaction
def claim_seat(code: str, address: str) -> tuple[GameRecord, dict]:
    """Claim an own-device seat with its join code: this browser gets the seat's token. The
    code then stops working, so a second browser cannot take the seat (unless released)."""
    seat = look_up_code(code, address)
    if seat is None:
        raise NotFound(NO_OPEN_SEAT)
    record = seat.game
    token = store.new_token()
    seat.token_hash = store.hash_token(token)
    seat.join_code = seat.code_expires_at = None
    number = seat.number
    store.save_game(record, None, [])  # a new version, so the other screens show who joined
    return record, {str(number): token}


def _host_seat(slug: str, number: int) -> tuple[GameRecord, SeatRecord]:
    record = store.lock_game(slug)
    if record is None or not 0 <= number < len(record.seats):
        raise NotFound("There is no such seat.")
    return record, record.seats[number]


@store.transaction
def release_seat(slug: str, tokens: Mapping[str, str], number: int) -> None:
    """The host frees an own-device seat: its old token stops working, a new code is made (the
    old holder's table then says the host released their seat)."""
    record, seat = _host_seat(slug, number)
    if not is_host(record, tokens):
        raise Forbidden("Only the host can release a seat.")
    if seat.is_ai or seat.device != OWN:
        raise TableError("Only a seat on its own device can be released.")
    if record.status != PLAYING:
        raise Conflict("This game is over.")
    issue_join_code(seat)  # (also how the host renews an expired code)
    store.save_game(record, None, [])


@store.transaction
def set_standin(slug: str, tokens: Mapping[str, str], number: int, on: bool, idle_seconds: int) -> None:
    """The host lets the AI play an idle person's turns; the person (or host) stops it."""
    record, seat = _host_seat(slug, number)
    held = held_seats(record, tokens)
    if seat.is_ai:
        raise TableError("That seat is already a computer player.")
    if record.status != PLAYING:
        raise Conflict("This game is over.")
    state = store.load_state(record)
    if on:
        if not held.host:
            raise Forbidden("Only the host can let the AI stand in.")
        if state.definition.bot is None:
            raise TableError(f"{state.definition.name} has no computer player to stand in.")
        waited = (utcnow() - record.updated_at).total_seconds()
        if state.to_move() != number or waited < idle_seconds:
            raise Conflict(f"{seat.name} is not idle: the AI can stand in after {idle_seconds} seconds of waiting on their turn.")
        seat.ai_standin = True
        record.standins = standin_spans(record, state, number, True)
        save_and_score(record, state, play_computer_turns(state, record), standins=record.standins)
    else:
        if not held.host and number not in held:
            raise Forbidden("Only the host or the seat's player can stop the AI.")
        seat.ai_standin = False
        store.save_game(record, None, [], standins=standin_spans(record, state, number, False))


def standin_spans(record: GameRecord, state: GameState, number: int, on: bool) -> str:
    """``record.standins`` with a span of the game's log opened (or closed) for seat ``number``
    at the log's current end: the lines the computer made for that person."""
    spans = json.loads(record.standins or "{}")
    mine = spans.setdefault(str(number), [])
    end = len(state.view(None).get("log") or [])
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


@store.transaction
def abandon(slug: str, tokens: Mapping[str, str]) -> GameRecord:
    """The host ends an unfinished game: it leaves Menu A's list, and no result or score is
    recorded (an unfinished game changes no score)."""
    record = store.lock_game(slug)
    if record is None:
        raise GameNotFound()
    if not is_host(record, tokens):
        raise Forbidden("Only the host (the browser that set the game up) can abandon it.")
    if record.status != PLAYING:
        raise Conflict("This game is not being played any more.")
    store.save_game(record, None, [], status=ABANDONED)
    return record
