"""Tables: creating games of any kind, applying a browser's action, computer turns, game end,
rematches and seats. The web routes call these functions; each game's rules decide every rule
(through the protocol); store.py reads and writes the rows.

Every action goes through ``perform``, which checks in this order: the game exists (404), the
form is an action of this game (400, or 422 for a selection that is none), the browser holds the
seat it acts for (403), the form was made on the current version of the game (409), the game is
still being played (409), a shared device was handed over (409); then the rules apply the action
or refuse it (409 out of turn, 422 otherwise). Nothing is written unless all of them pass, and
everything a request does is one transaction.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import sqlalchemy as sa
from flask import current_app
from sqlalchemy.orm import selectinload

from . import store
from .core.autoplay import autoplay
from .core.cards import Card
from .core.protocol import (
    BadAction, Bot, GameDefinition, GameIsOver, GameState, IllegalAction, NotYourTurn, Outcome,
)
from .extensions import db
from .files import write_atomically
from .models import ABANDONED, FINISHED, HERE, OWN, PLAYING, GameRecord, SeatRecord, utcnow

JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
JOIN_CODE_LENGTH = 6


class TableError(Exception):
    """An action or request that is refused; ``status`` is the HTTP status to answer with."""

    status = 400

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class NotFound(TableError):
    status = 404


class Forbidden(TableError):
    status = 403


class Conflict(TableError):
    """Stale view, out of turn, or a game that is over: the fresh table is shown."""

    status = 409


class Refused(TableError):
    """The rules refused the action (R6.3 and the like)."""

    status = 422


STALE = "The table changed before your action arrived, so nothing was done. Here it is now."


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
        if store.token_matches(tokens.get(str(seat.number)), seat.token_hash):
            held.seats.add(seat.number)
    return held


def is_host(record: GameRecord, tokens: Mapping[str, str]) -> bool:
    return store.token_matches(tokens.get("host"), record.host_token_hash)


# -- creating games ------------------------------------------------------------------------------


def create_game(definition: GameDefinition, specs: list[SeatSpec], *, options: Mapping[str, Any] | None = None,
                deck: list[Card] | None = None, deck_name: str | None = None, claim: set[int] | None = None,
                in_transaction: bool = False) -> tuple[GameRecord, dict]:
    """Create a game; return it with the tokens of the seats this browser now holds.

    ``claim`` lists the seats this browser takes (by default every hot-seat seat); every other
    human seat gets a join code for its own device. Computer seats that start play at once."""
    options = definition.validate_options(options or {})
    state = definition.new_state([spec.name for spec in specs], options=options,
                                 seed=None if deck else secrets.randbits(63), stacked_deck=deck)
    if claim is None:
        claim = {number for number, spec in enumerate(specs) if spec.device == HERE}
    tokens: dict[str, str] = {}
    initial = store.dump_state(state)
    record = GameRecord(slug=store.new_slug(), kind=definition.key, options=json.dumps(options), state="",
                        initial_state=initial, version=1, status=PLAYING, deck_name=deck_name,
                        deck_cards=" ".join(card.id for card in deck) if deck else None, host_token_hash="")
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
            seat.join_code = new_join_code()
        record.seats.append(seat)
    if not in_transaction:  # (a rematch creates its game inside its own locked transaction)
        store.begin_write()
    actions = play_computer_turns(state, record)
    record.state = store.dump_state(state)
    record.headline = store.headline(state)
    record.version = 1 + len(actions)  # each computer action made a version
    if state.is_over():
        record.status, record.finished_at = FINISHED, utcnow()
    db.session.add(record)
    db.session.flush()
    store.log_actions(record, 1, actions)
    if state.is_over():
        finish(record, state)
    if not in_transaction:
        db.session.commit()
        if state.is_over():
            after_finish(record)
    return record, tokens


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


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


def perform(slug: str, tokens: Mapping[str, str], form_version: int | None, seat: int | None,
            action_data: Mapping[str, Any]) -> Result:
    """Apply a browser's action (plain data, as its form posted it) in one transaction, or
    raise TableError with nothing changed. ``seat`` None: a move of the table (the next deal)."""
    record = store.lock_game(slug)
    if record is None:
        raise NotFound("There is no such game.")
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
        raise Forbidden("This browser does not hold that seat.")
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
    """Save the game; if it just ended, record the results in the same transaction and then
    refresh Mason Rummy's scores.csv."""
    ended = state.is_over() and record.status == PLAYING
    if ended:
        finish(record, state)
    store.save_game(record, state, actions, **changes)
    if ended:
        after_finish(record)


def finish(record: GameRecord, state: GameState) -> None:
    """The moment a game ends (R7.4): its results, in the caller's transaction (and kept with
    the game, for the list of finished games)."""
    store.record_results(store.definition_of(record), state.results())
    record.results = json.dumps([{"seat": r.seat, "name": state.label(r.seat), "won": r.won, "score": r.score}
                                 for r in state.results()])


def after_finish(record: GameRecord) -> None:
    if store.definition_of(record).has_score_table:
        write_scores_file()


def reveal(slug: str, tokens: Mapping[str, str], form_version: int | None) -> Result:
    """The hand-over screen's button: show the current hot-seat player's hand on this device."""
    record = store.lock_game(slug)
    if record is None:
        raise NotFound("There is no such game.")
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


def write_scores_file() -> None:
    """Keep instance/scores.csv equal to Mason Rummy's score table (R7.5), written atomically.

    A lock file orders writers from several processes, and each writes the table as it is once
    it holds the lock, so the file never goes back to an older table."""
    path = current_app.config["SCORES_CSV_PATH"]
    with open(path + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            db.session.rollback()
            table = store.score_table()
            db.session.rollback()
            write_atomically(path, table.save_scores(), prefix=".scores-")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def unfinished_games(limit: int = 50) -> list[GameRecord]:
    """The most recently played unfinished games, with their seats (one query for all of them)."""
    return list(db.session.scalars(
        sa.select(GameRecord).where(GameRecord.status == PLAYING).options(selectinload(GameRecord.seats))
        .order_by(GameRecord.updated_at.desc()).limit(limit)))


def rematch(slug: str, tokens: Mapping[str, str]) -> tuple[GameRecord, dict]:
    """A new game with the same players, seats, options and stacked deck (a shuffled game is
    reshuffled).

    This browser takes the new game's seats it held in the old one; the others follow with
    ``follow_rematch`` (their old table links to the new one)."""
    record = store.lock_game(slug)
    if record is None:
        raise NotFound("There is no such game.")
    if not held_seats(record, tokens).at_table:
        raise Forbidden("Only the players at this table can start a rematch.")
    if record.status != FINISHED:
        raise Conflict("The game is still being played.")
    if record.rematch_slug:
        return follow_rematch(slug, tokens)
    definition = store.definition_of(record)
    specs = [SeatSpec(s.name, s.is_ai, s.device) for s in record.seats]
    deck = None
    if record.deck_cards:
        deck_spec = definition.deck_for(len(specs))
        deck = [deck_spec.parse(card_id) for card_id in record.deck_cards.split()]
    # The new game and the old game's link to it are one transaction, made while the old game
    # is locked: a doubled Rematch click (or both players at once) makes one rematch, not two.
    new_record, _tokens = create_game(definition, specs, options=json.loads(record.options or "{}"), deck=deck,
                                      deck_name=record.deck_name, claim=set(), in_transaction=True)
    new_tokens = carry_seats(record, new_record, tokens)
    store.save_game(record, None, [], rematch_slug=new_record.slug)
    if new_record.status == FINISHED:
        after_finish(new_record)
    return new_record, new_tokens


def follow_rematch(slug: str, tokens: Mapping[str, str]) -> tuple[GameRecord, dict]:
    """Take, in the rematch, the seats this browser held in the finished game."""
    record = store.lock_game(slug)
    if record is None or not record.rematch_slug:
        raise NotFound("There is no rematch of this game.")
    if not held_seats(record, tokens).at_table:
        raise Forbidden("Only the players at this table can join its rematch.")
    new_record = store.find_game(record.rematch_slug)
    new_tokens = carry_seats(record, new_record, tokens)
    db.session.commit()
    return new_record, new_tokens


def carry_seats(old: GameRecord, new: GameRecord, tokens: Mapping[str, str]) -> dict:
    """Give this browser, in the rematch ``new``, the seats (and host role) it holds in ``old``.

    The new tokens are derived from the old ones (an HMAC with the secret key), so every answer
    to a doubled Rematch or follow carries the same tokens: whichever answer's cookie the browser
    keeps, it holds its seats. A seat someone else has claimed meanwhile is left to them."""
    carried: dict[str, str] = {}
    held = held_seats(old, tokens)
    if held.host:
        carried["host"] = token = _carried_token(tokens["host"], new.slug, "host")
        new.host_token_hash = store.hash_token(token)
    for number in held.seats:
        seat = new.seats[number]
        token = _carried_token(tokens[str(number)], new.slug, str(number))
        if seat.is_ai or seat.token_hash not in (None, store.hash_token(token)):
            continue
        carried[str(number)] = token
        seat.token_hash = store.hash_token(token)
        seat.join_code = None
    return carried


def _carried_token(old_token: str, new_slug: str, key: str) -> str:
    secret = str(current_app.config["SECRET_KEY"]).encode()
    digest = hmac.new(secret, f"rematch|{new_slug}|{key}|{old_token}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:store.TOKEN_BYTES]).decode().rstrip("=")


# -- seats on their own devices (LAN play) --------------------------------------------------------


def find_seat_by_code(code: str) -> SeatRecord | None:
    code = (code or "").strip().upper().replace(" ", "").replace("-", "")
    if not code or len(code) > 12:
        return None
    return db.session.scalar(sa.select(SeatRecord).where(SeatRecord.join_code == code))


def claim_seat(code: str) -> tuple[GameRecord, dict]:
    """Claim an own-device seat with its join code: this browser gets the seat's token. The
    code then stops working, so a second browser cannot take the seat (unless released)."""
    store.begin_write()
    seat = find_seat_by_code(code)
    if seat is None:
        raise NotFound("No open seat has that code. Check the code, or ask the host for a new one.")
    record = seat.game
    if record.status != PLAYING:
        raise Conflict("That game is over.")
    token = store.new_token()
    seat.token_hash = store.hash_token(token)
    seat.join_code = None
    number = seat.number
    store.save_game(record, None, [])  # a new version, so the other screens show who joined
    return record, {str(number): token}


def _host_seat(slug: str, number: int) -> tuple[GameRecord, SeatRecord]:
    record = store.lock_game(slug)
    if record is None or not 0 <= number < len(record.seats):
        raise NotFound("There is no such seat.")
    return record, record.seats[number]


def release_seat(slug: str, tokens: Mapping[str, str], number: int) -> None:
    """The host frees an own-device seat: its old token stops working, a new code is made."""
    record, seat = _host_seat(slug, number)
    if not is_host(record, tokens):
        raise Forbidden("Only the host can release a seat.")
    if seat.is_ai or seat.device != OWN:
        raise TableError("Only a seat on its own device can be released.")
    seat.token_hash = None
    seat.join_code = new_join_code()
    store.save_game(record, None, [])


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


def abandon(slug: str, tokens: Mapping[str, str]) -> GameRecord:
    """The host ends an unfinished game: it leaves Menu A's list, and no result or score is
    recorded (an unfinished game changes no score)."""
    record = store.lock_game(slug)
    if record is None:
        raise NotFound("There is no such game.")
    if not is_host(record, tokens):
        raise Forbidden("Only the host (the browser that set the game up) can abandon it.")
    if record.status != PLAYING:
        raise Conflict("This game is not being played any more.")
    store.save_game(record, None, [], status=ABANDONED)
    return record
