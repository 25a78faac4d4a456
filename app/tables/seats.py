"""Seats and their tokens: which seats (and the host role) a browser holds, proven by the token
hashes of its holdings (``holdings``); whose hand a shared device may show; and how held seats
pass on to a rematch.

A seat (and a game's host role) has a token, kept as its hash: a browser holds the seat while
its holding names that hash. A released seat gets no token until somebody claims it, so the old
holding no longer proves anything (and does again if the release is undone)."""

from __future__ import annotations

from flask_babel import gettext, lazy_gettext

import base64
import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass, field

from flask import current_app

from .. import store
from ..core.protocol import NORMAL, GameState
from ..store.models import HERE, OWN, GameRecord, SeatRecord

# A computer player's strength in the reader's words (easy, normal, strong).
STRENGTH_WORDS = {"easy": lazy_gettext("easy"), "normal": lazy_gettext("normal"), "strong": lazy_gettext("strong")}


def strength_words(strength: str) -> str:
    """``strength`` (``app.core.protocol.STRENGTHS``) in the reader's words."""
    words = STRENGTH_WORDS.get(strength)
    return str(words) if words is not None else strength


@dataclass
class SeatSpec:
    """A seat to set up: who sits there, where it is played, and a computer seat's strength
    (``GameDefinition.strengths``; None: the normal player)."""

    name: str
    is_ai: bool = False
    device: str = HERE
    strength: str | None = None


@dataclass
class Held:
    """The seats a browser holds in one game, proven by its holdings, and whether it is the
    game's host (the browser that set it up)."""

    seats: set[int] = field(default_factory=set)
    host: bool = False
    # Seats this browser once held (its holdings still name them) that the host has released since.
    released: set[int] = field(default_factory=set)

    def __contains__(self, seat: object) -> bool:
        return seat in self.seats

    @property
    def at_table(self) -> bool:
        """May make the table's moves (deal the next round, rematch): a seat holder or the host
        (in a game of computer seats only, nobody else could)."""
        return bool(self.seats) or self.host


def held_seats(record: GameRecord, hashes: Mapping[str, str]) -> Held:
    """Which seats of ``record`` a browser's holdings there (``hashes``: {seat number or "host":
    token hash}) really hold."""
    held = Held(host=same_hash(hashes.get("host"), record.host_token_hash))
    for seat in record.seats:
        mine = hashes.get(str(seat.number))
        if same_hash(mine, seat.token_hash):
            held.seats.add(seat.number)
        elif mine:  # only the server writes holdings: this seat was released since
            held.released.add(seat.number)
    return held


def same_hash(held: str | None, token_hash: str | None) -> bool:
    """Whether a holding's hash is the seat's (in constant time: the hashes are credentials)."""
    return store.hashes_match(held, token_hash)


def new_token_hash() -> str:
    """The hash of a new random token, for a seat or a host role: nobody ever needs the token
    itself (the holdings keep the hash)."""
    return store.hash_token(store.new_token())


def give_seat(seat: SeatRecord) -> str:
    """``seat`` gets a new token; returns its hash (for the holding of whoever takes the seat)."""
    token_hash = seat.token_hash = new_token_hash()
    return token_hash


# -- hot-seat: several people sharing one device -------------------------------------------------


def hot_seat_humans(record: GameRecord, held: Held) -> list[int]:
    return [s.number for s in record.seats if s.device == HERE and not s.is_ai and s.number in held]


def needs_handover(record: GameRecord, state: GameState, held: Held) -> bool:
    """Hot-seat privacy: with two or more people sharing this device, a turn starts with a
    hand-over screen naming the player, until they press the button; not when the seat sees no
    card the others may not (every hand face up, as at 21)."""
    turn = state.to_move()
    return (turn is not None and turn in held and record.seats[turn].device == HERE
            and len(hot_seat_humans(record, held)) > 1 and record.shown_seat != turn
            and turn in state.seats_with_private_cards())


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


@dataclass(frozen=True)
class Presence:
    """What one browser is at a table now (a spectator: nothing)."""

    shown: int | None = None  # the seat whose hand it shows
    handover: int | None = None  # the seat this shared device must be handed to first
    seats: frozenset[int] = frozenset()  # the seats it holds
    host: bool = False
    at_table: bool = False  # may make the table's moves (``Held.at_table``)

    @property
    def manages(self) -> bool:
        """Sees the seats panel: the host, or a seat holder."""
        return self.host or bool(self.seats)


SPECTATOR = Presence()


def presence(record: GameRecord, state: GameState, held: Held) -> Presence:
    """What the browser that holds ``held`` is at the table now."""
    turn = state.to_move()
    return Presence(shown=seat_to_show(record, state, held),
                    handover=turn if needs_handover(record, state, held) else None,
                    seats=frozenset(held.seats), host=held.host, at_table=held.at_table)


@dataclass(frozen=True)
class SeatLine:
    """A seat as the seats panel and the invitations show it."""

    number: int
    name: str  # as shown ("AI 2")
    player: str  # as set up ("AI")
    is_ai: bool
    device: str
    claimed: bool  # somebody holds it
    standin: bool  # the computer plays it for its idle person
    join_code: str | None  # for the host's eyes only, while nobody holds the seat
    code_expired: bool  # (the host sees it, and may make a new code)
    restorable: bool = False  # released by the host, nobody took it since: the host may undo it
    strength: str | None = None  # a computer seat's (easy, normal, strong); None for a person

    @property
    def computer(self) -> str:
        """A computer seat as its badge and the results name it: "Computer (strong)"."""
        if self.strength:
            return gettext("Computer (%(strength)s)", strength=strength_words(self.strength))
        return gettext("Computer")


def seat_strength(seat: SeatRecord) -> str | None:
    """The strength of ``seat``'s computer player (a seat set up before strengths were chosen
    plays the normal one); None for a person."""
    return (seat.strength or NORMAL) if seat.is_ai else None


def seat_lines(record: GameRecord, state: GameState, *, host: bool, open_for_joining: bool) -> list[SeatLine]:
    """Every seat of ``record``; whoever reads a join code can take the seat, so only the host
    sees the codes, and only while the game may still be joined."""
    lines = []
    for seat in record.seats:
        open_seat = open_for_joining and seat.device == OWN and not seat.is_ai and seat.token_hash is None
        live_code = open_seat and seat.code_is_live
        lines.append(SeatLine(number=seat.number, name=state.label(seat.number), player=seat.name,
                              is_ai=seat.is_ai, device=seat.device, claimed=seat.token_hash is not None,
                              standin=seat.ai_standin, join_code=seat.join_code if host and live_code else None,
                              code_expired=host and open_seat and not live_code,
                              restorable=host and open_seat and seat.previous_token_hash is not None,
                              strength=seat_strength(seat)))
    return lines


# -- a rematch's seats go to their holders ---------------------------------------------------------


def hand_on_seats(old: GameRecord, new: GameRecord) -> None:
    """Give each seat of the rematch ``new`` to whoever holds it in ``old``, and the host role to
    the old host: the new token hashes are made from the old ones (``carry_seats``). A seat
    nobody held keeps the fresh join code it was given."""
    new.host_token_hash = store.hash_token(successor_token(old.host_token_hash, new.slug, "host"))
    for old_seat, seat in zip(old.seats, new.seats):
        if seat.is_ai or old_seat.token_hash is None:
            continue
        seat.token_hash = store.hash_token(successor_token(old_seat.token_hash, new.slug, str(seat.number)))
        seat.join_code = seat.code_expires_at = None


def carry_seats(old: GameRecord, new: GameRecord, hashes: Mapping[str, str]) -> tuple[dict[str, str], set[int]]:
    """The holdings, in the rematch ``new``, of a browser holding ``hashes`` in ``old`` (its
    seats there and the host role), and the numbers of its seats that are no longer its own in
    the rematch (released there since). A seat's token in the rematch is derived from its token
    in the finished game (``successor_token``), so every holder of the old seat, and only they,
    hold the new one."""
    carried: dict[str, str] = {}
    lost: set[int] = set()
    held = held_seats(old, hashes)
    if held.host:
        successor = store.hash_token(successor_token(hashes["host"], new.slug, "host"))
        if same_hash(successor, new.host_token_hash):
            carried["host"] = successor
    for number in held.seats:
        seat = new.seats[number]
        successor = store.hash_token(successor_token(hashes[str(number)], new.slug, str(number)))
        if same_hash(successor, seat.token_hash):
            carried[str(number)] = successor
        elif not seat.is_ai:
            lost.add(number)
    return carried, lost


def successor_token(old_token_hash: str, new_slug: str, key: str) -> str:
    """The token of seat ``key`` (or "host") in the rematch ``new_slug``, from the hash of its
    token in the finished game: an HMAC with the secret key, so only the server can make it."""
    secret = str(current_app.config["SECRET_KEY"]).encode()
    digest = hmac.new(secret, f"rematch|{new_slug}|{key}|{old_token_hash}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:store.TOKEN_BYTES]).decode().rstrip("=")
