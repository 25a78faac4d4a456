"""Join codes: how a person takes an own-device seat from their own phone or laptop. A code is
shown to the host only; it works once, for ``JOIN_CODE_HOURS`` at most and only while its game
is played; a client address that types too many wrong codes must wait."""

from __future__ import annotations

from flask_babel import gettext

import secrets
from datetime import timedelta
from typing import TypedDict

import sqlalchemy as sa
from flask import current_app

from .. import store
from ..store import limits
from ..extensions import db
from ..store.models import OWN, PLAYING, GameRecord, SeatRecord, utcnow
from .errors import NO_OPEN_SEAT, Conflict, Forbidden, NotFound, TableError, TooMany, game_over
from . import holdings, news
from .saving import save_and_score
from .seats import give_seat, held_seats

JOIN_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O or 1/I to misread
JOIN_CODE_LENGTH = 6


def new_join_code() -> str:
    return "".join(secrets.choice(JOIN_CODE_ALPHABET) for _ in range(JOIN_CODE_LENGTH))


def issue_join_code(seat: SeatRecord) -> None:
    """A fresh join code for an own-device seat nobody holds, valid for ``JOIN_CODE_HOURS``."""
    seat.token_hash = None
    seat.join_code = new_join_code()
    seat.code_expires_at = utcnow() + timedelta(hours=current_app.config["JOIN_CODE_HOURS"])


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
    if seat is None or not seat.code_is_live or seat.game.status != PLAYING:
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
        raise TooMany(gettext("Too many wrong codes from this device: try again in %(num)s minutes.", num=limits.minutes(window)))
    seat = find_seat_by_code(code)
    if seat is None:
        limits.count(limits.WRONG_JOIN_CODE, address, window)
        db.session.commit()
    return seat


class SeatOfCode(TypedDict):
    """What a join code would claim: the seat's number and name, and every seat's name."""

    number: int
    name: str
    names: list[str]


@news.command
def seat_of_code(code: str, address: str) -> SeatOfCode | None:
    """What a join code would claim (a link's preview: nothing is claimed), or None: the seat's
    number and name and every seat's name. A wrong code counts against ``address``."""
    seat = look_up_code(code, address)
    found: SeatOfCode | None = None
    if seat is not None:
        found = {"number": seat.number, "name": seat.name, "names": [s.name for s in seat.game.seats]}
    db.session.commit()  # (a right code wrote nothing)
    return found


@news.command
def claim_seat(code: str, holder: holdings.Holder, address: str) -> str:
    """Claim an own-device seat with its join code for ``holder`` (it has a key); returns
    the game's slug. The code then stops working, so a second browser cannot take the seat
    (unless released)."""
    seat = look_up_code(code, address)
    if seat is None:
        raise NotFound(str(NO_OPEN_SEAT))
    record = seat.game
    holdings.hold(holder.key or "", record, str(seat.number), give_seat(seat))
    seat.join_code = seat.code_expires_at = seat.previous_token_hash = None
    save_and_score(record, None, [])  # a new version, so the other screens show who joined
    holdings.reread(holder, record)
    return record.slug


def host_seat(slug: str, number: int) -> tuple[GameRecord, SeatRecord]:
    """The game (locked) and its seat ``number``, for the host's seat controls."""
    record = store.lock_game(slug)
    if record is None or not 0 <= number < len(record.seats):
        raise NotFound(gettext("There is no such seat."))
    return record, record.seats[number]


@news.command
def release_seat(slug: str, holder: holdings.Holder, number: int) -> None:
    """The host frees an own-device seat: its old token stops working, a new code is made (the
    old holder's table then says the host released their seat)."""
    record, seat = host_seat(slug, number)
    if not held_seats(record, holdings.held_hashes(holder, record)).host:
        raise Forbidden(gettext("Only the host can release a seat."))
    if seat.is_ai or seat.device != OWN:
        raise TableError(gettext("Only a seat on its own device can be released."))
    if record.status != PLAYING:
        raise Conflict(game_over(record.status))
    if seat.token_hash is not None:  # (a renewed code keeps the undo of an earlier release)
        seat.previous_token_hash = seat.token_hash
    issue_join_code(seat)  # (also how the host renews an expired code)
    save_and_score(record, None, [])


@news.command
def restore_seat(slug: str, holder: holdings.Holder, number: int) -> None:
    """The host undoes a release: the seat's last holder holds it again (their old token works
    again), its new code stops working. Only while nobody has taken the seat with that code."""
    record, seat = host_seat(slug, number)
    if not held_seats(record, holdings.held_hashes(holder, record)).host:
        raise Forbidden(gettext("Only the host can undo a release."))
    if record.status != PLAYING:
        raise Conflict(game_over(record.status))
    if seat.token_hash is not None or seat.previous_token_hash is None:
        raise Conflict(gettext("%(name)s's seat cannot be given back: somebody has taken it since, or it was "
                               "never released.", name=seat.name))
    seat.token_hash, seat.previous_token_hash = seat.previous_token_hash, None
    seat.join_code = seat.code_expires_at = None
    save_and_score(record, None, [])
