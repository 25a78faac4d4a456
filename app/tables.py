"""Tables: creating games, applying a browser's action, computer turns, game end.

The web routes call these functions; the rules module decides every rule; store.py reads and
writes the rows. Checks happen in this order for every action: the game exists and is being
played (404/409), the browser holds the seat it acts for (403), the form was made on the current
version of the game (409), it is that seat's turn (409), the rules accept the action (422).
Nothing is written unless all of them pass, and everything a request does is one transaction.
"""

from __future__ import annotations

import base64
import fcntl
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

import sqlalchemy as sa
from flask import current_app
from sqlalchemy.orm import selectinload

from . import store
from .extensions import db
from .models import FINISHED, HERE, OWN, PLAYING, GameRecord, SeatRecord, utcnow
from .rules import (
    DRAW_PHASE, PLAY_PHASE, Card, Game, IllegalAction, NextRound, NotYourTurn,
)
from .rules.actions import Action
from .rules.players import play_computer_turn

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


@dataclass
class SeatSpec:
    name: str
    is_ai: bool = False
    device: str = HERE


@dataclass
class Held:
    """The seats a browser holds in one game, proven by tokens from its session."""

    seats: set[int] = field(default_factory=set)

    def __contains__(self, seat: object) -> bool:
        return seat in self.seats


def held_seats(record: GameRecord, tokens: dict) -> Held:
    """Which seats of ``record`` the presented ``tokens`` ({seat number: token}) really hold."""
    held = Held()
    for seat in record.seats:
        token = tokens.get(str(seat.number))
        if store.token_matches(token, seat.token_hash):
            held.seats.add(seat.number)
    return held


# -- creating games ------------------------------------------------------------------------------


def create_game(specs: list[SeatSpec], deck: list[Card] | None, deck_name: str | None,
                claim: set[int] | None = None, *, in_transaction: bool = False) -> tuple[GameRecord, dict]:
    """Create a game; return it with the tokens of the seats this browser now holds.

    ``claim`` lists the seats this browser takes (by default every hot-seat seat); every other
    human seat gets a join code for its own device. Computer seats that start play at once."""
    game = Game.new([spec.name for spec in specs], stacked_deck=deck,
                    seed=None if deck else secrets.randbits(63))
    if claim is None:
        claim = {number for number, spec in enumerate(specs) if spec.device == HERE}
    tokens: dict[str, str] = {}
    record = GameRecord(slug=store.new_slug(), state="", version=1, status=PLAYING, players=len(specs),
                        deck_name=deck_name, host_token_hash="")
    host_token = store.new_token()
    record.host_token_hash = store.hash_token(host_token)
    tokens["host"] = host_token
    for number, spec in enumerate(specs):
        seat = SeatRecord(number=number, name=game.players[number].name, is_ai=spec.is_ai, device=spec.device)
        if spec.is_ai:
            pass
        elif number in claim:
            tokens[str(number)] = token = store.new_token()
            seat.token_hash = store.hash_token(token)
            seat.claimed_at = utcnow()
        else:
            seat.join_code = new_join_code()
        record.seats.append(seat)
    if not in_transaction:  # (a rematch creates its game inside its own locked transaction)
        store.begin_write()
    actions = play_computer_turns(game, record)
    record.state = store.dump_state(game)
    record.version = 1 + len(actions)  # each computer action made a version
    db.session.add(record)
    db.session.flush()
    store.log_actions(record, 1, actions)
    if not in_transaction:
        db.session.commit()
    return record, tokens


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


# -- playing ---------------------------------------------------------------------------------


def computer_plays(record: GameRecord, seat: int) -> bool:
    seat_record = record.seats[seat]
    return seat_record.is_ai or seat_record.ai_standin


def play_computer_turns(game: Game, record: GameRecord) -> list[tuple[int | None, Action]]:
    """AI seats (and AI stand-ins) play their turns at once, until a human's turn or the
    round's end (the next round waits for a person to press the button)."""
    actions: list[tuple[int | None, Action]] = []
    while game.phase in (DRAW_PHASE, PLAY_PHASE) and computer_plays(record, game.turn):
        seat = game.turn
        for outcome in play_computer_turn(game, seat):
            actions.append((seat, outcome.action))
            if outcome.round_over:
                break
    return actions


@dataclass
class Result:
    """A table after an applied action: the saved row and the game, to answer from."""

    record: GameRecord
    game: Game
    finished: bool = False


def perform(slug: str, tokens: dict, form_version: int | None, seat: int | None, action: Action) -> Result:
    """Apply a browser's action in one transaction, or raise TableError with nothing changed."""
    record = store.lock_game(slug)
    if record is None:
        raise NotFound("There is no such game.")
    held = held_seats(record, tokens)
    if isinstance(action, NextRound):
        # The host too: in a game of computer seats only (R3.4) nobody else could deal.
        if not held.seats and not is_host(record, tokens):
            raise Forbidden("Only the players at this table can deal the next round.")
    elif seat is None or seat not in held:
        raise Forbidden("This browser does not hold that seat.")
    if form_version != record.version:
        raise Conflict("The table changed before your action arrived, so nothing was done. Here it is now.")
    if record.status != PLAYING:
        raise Conflict("This game is over.")
    game = store.load_state(record)
    if not isinstance(action, NextRound):
        if seat != game.turn:
            raise Conflict(f"It is {game.current_player.name}'s turn, not yours.")
        if needs_handover(record, game, held):
            raise Conflict(f"Pass the device to {game.current_player.name} first.")
    try:
        game.apply(seat, action)
    except NotYourTurn as refusal:
        raise Conflict(str(refusal)) from None
    except IllegalAction as refusal:
        raise Refused(str(refusal)) from None
    actions = [(seat, action)] + play_computer_turns(game, record)
    # A new deal on a shared device starts with a hand-over screen, even for the player who
    # ended the last round: anyone may be holding the device after the round summary.
    extra = {"shown_seat": None} if isinstance(action, NextRound) else {}
    try:
        save_and_score(record, game, actions, **extra)
    except store.ConcurrentUpdate:
        raise Conflict("The table changed before your action arrived, so nothing was done. Here it is now.") from None
    return Result(record, game, finished=game.is_over)


def save_and_score(record: GameRecord, game: Game, actions: list, **changes) -> None:
    """Save the game; if it just ended, record the results (R7.4) in the same transaction and
    then refresh scores.csv."""
    if game.is_over:
        changes.update(status=FINISHED, finished_at=utcnow())
        winners = game.winners()
        store.record_results([(p.name, p.score, n in winners) for n, p in enumerate(game.players)])
    store.save_game(record, game, actions, **changes)
    if game.is_over:
        write_scores_file()


def reveal(slug: str, tokens: dict, form_version: int | None) -> Result:
    """The hand-over screen's button: show the current hot-seat player's hand on this device."""
    record = store.lock_game(slug)
    if record is None:
        raise NotFound("There is no such game.")
    held = held_seats(record, tokens)
    game = store.load_state(record)
    if game.turn not in held:
        raise Forbidden("This browser does not hold that seat.")
    if form_version != record.version:
        raise Conflict("The table changed; here it is now.")
    store.save_game(record, None, [], shown_seat=game.turn)
    return Result(record, game)


def hot_seat_humans(record: GameRecord, held: Held) -> list[int]:
    return [s.number for s in record.seats if s.device == HERE and not s.is_ai and s.number in held]


def needs_handover(record: GameRecord, game: Game, held: Held) -> bool:
    """Hot-seat privacy: with two or more people sharing this device, a turn starts with a
    hand-over screen naming the player, until they press the button."""
    turn = game.turn
    return (game.phase in (DRAW_PHASE, PLAY_PHASE) and turn in held
            and record.seats[turn].device == HERE and len(hot_seat_humans(record, held)) > 1
            and record.shown_seat != turn)


def seat_to_show(record: GameRecord, game: Game, held: Held) -> int | None:
    """Whose hand this browser may see now (None: no hand, as a spectator sees the table)."""
    if game.phase in (DRAW_PHASE, PLAY_PHASE) and game.turn in held:
        return None if needs_handover(record, game, held) else game.turn
    own = sorted(n for n in held.seats if record.seats[n].device == OWN)
    if own:
        return own[0]
    here = hot_seat_humans(record, held)
    if len(here) == 1:
        return here[0]
    return None  # several people share this device: show no hand between their turns


# -- game end --------------------------------------------------------------------------------


def write_scores_file() -> None:
    """Keep instance/scores.csv equal to the score table (R7.5), written atomically.

    A lock file orders writers from several processes, and each writes the table as it is once
    it holds the lock, so the file never goes back to an older table."""
    path = current_app.config["SCORES_CSV_PATH"]
    with open(path + ".lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            db.session.rollback()
            table = store.score_table()
            db.session.rollback()
            table.save_scores(path)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def unfinished_games(limit: int = 50) -> list[GameRecord]:
    """The most recently played unfinished games, with their seats (one query for all of them)."""
    return list(db.session.scalars(
        sa.select(GameRecord).where(GameRecord.status == PLAYING).options(selectinload(GameRecord.seats))
        .order_by(GameRecord.updated_at.desc()).limit(limit)))


def rematch(slug: str, tokens: dict) -> tuple[GameRecord, dict]:
    """A new game with the same players, seats and stacked deck (a shuffled game is reshuffled).

    This browser takes the new game's seats it held in the old one; the others follow with
    ``follow_rematch`` (their old table links to the new one)."""
    record = store.lock_game(slug)
    if record is None:
        raise NotFound("There is no such game.")
    held = held_seats(record, tokens)
    if not held.seats and not is_host(record, tokens):
        raise Forbidden("Only the players at this table can start a rematch.")
    if record.status != FINISHED:
        raise Conflict("The game is still being played.")
    if record.rematch_slug:
        return follow_rematch(slug, tokens)
    game = store.load_state(record)
    specs = [SeatSpec(s.name, s.is_ai, s.device) for s in record.seats]
    deck = list(game.stacked_deck) if game.stacked_deck is not None else None
    # The new game and the old game's link to it are one transaction, made while the old game
    # is locked: a doubled Rematch click (or both players at once) makes one rematch, not two.
    new_record, _tokens = create_game(specs, deck, record.deck_name, claim=set(), in_transaction=True)
    new_tokens = carry_seats(record, new_record, tokens)
    store.save_game(record, None, [], rematch_slug=new_record.slug)
    return new_record, new_tokens


def follow_rematch(slug: str, tokens: dict) -> tuple[GameRecord, dict]:
    """Take, in the rematch, the seats this browser held in the finished game."""
    record = store.lock_game(slug)
    if record is None or not record.rematch_slug:
        raise NotFound("There is no rematch of this game.")
    if not held_seats(record, tokens).seats and not is_host(record, tokens):
        raise Forbidden("Only the players at this table can join its rematch.")
    new_record = store.find_game(record.rematch_slug)
    new_tokens = carry_seats(record, new_record, tokens)
    db.session.commit()
    return new_record, new_tokens


def carry_seats(old: GameRecord, new: GameRecord, tokens: dict) -> dict:
    """Give this browser, in the rematch ``new``, the seats (and host role) it holds in ``old``.

    The new tokens are derived from the old ones (an HMAC with the secret key), so every answer
    to a doubled Rematch or follow carries the same tokens: whichever answer's cookie the browser
    keeps, it holds its seats. A seat someone else has claimed meanwhile is left to them."""
    carried: dict[str, str] = {}
    if is_host(old, tokens):
        carried["host"] = token = _carried_token(tokens["host"], new.slug, "host")
        new.host_token_hash = store.hash_token(token)
    for number in held_seats(old, tokens).seats:
        seat = new.seats[number]
        token = _carried_token(tokens[str(number)], new.slug, str(number))
        if seat.is_ai or seat.token_hash not in (None, store.hash_token(token)):
            continue
        carried[str(number)] = token
        seat.token_hash = store.hash_token(token)
        seat.join_code = None
        seat.claimed_at = seat.claimed_at or utcnow()
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
    seat.claimed_at = seat.last_seen_at = utcnow()
    number = seat.number
    store.save_game(record, None, [])  # a new version, so the other screens show who joined
    return record, {str(number): token}


def _host_seat(slug: str, tokens: dict, number: int) -> tuple[GameRecord, SeatRecord]:
    record = store.lock_game(slug)
    if record is None or not 0 <= number < len(record.seats):
        raise NotFound("There is no such seat.")
    return record, record.seats[number]


def is_host(record: GameRecord, tokens: dict) -> bool:
    return store.token_matches(tokens.get("host"), record.host_token_hash)


def release_seat(slug: str, tokens: dict, number: int) -> None:
    """The host frees an own-device seat: its old token stops working, a new code is made."""
    record, seat = _host_seat(slug, tokens, number)
    if not is_host(record, tokens):
        raise Forbidden("Only the host can release a seat.")
    if seat.is_ai or seat.device != OWN:
        raise TableError("Only a seat on its own device can be released.")
    seat.token_hash = None
    seat.join_code = new_join_code()
    store.save_game(record, None, [])


def set_standin(slug: str, tokens: dict, number: int, on: bool, idle_seconds: int) -> None:
    """The host lets the AI play an idle person's turns; the person (or host) stops it."""
    record, seat = _host_seat(slug, tokens, number)
    held = held_seats(record, tokens)
    host = is_host(record, tokens)
    if seat.is_ai:
        raise TableError("That seat is already a computer player.")
    if record.status != PLAYING:
        raise Conflict("This game is over.")
    game = store.load_state(record)
    if on:
        if not host:
            raise Forbidden("Only the host can let the AI stand in.")
        waited = (utcnow() - record.updated_at).total_seconds()
        if game.turn != number or waited < idle_seconds:
            raise Conflict(f"{seat.name} is not idle: the AI can stand in after {idle_seconds} seconds of waiting on their turn.")
        seat.ai_standin = True
        save_and_score(record, game, play_computer_turns(game, record))
    else:
        if not host and number not in held:
            raise Forbidden("Only the host or the seat's player can stop the AI.")
        seat.ai_standin = False
        store.save_game(record, None, [])
