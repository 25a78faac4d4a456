"""A game's life at the table: set up (its seats, tokens and join codes), rematched with the same
players, abandoned by its host; and the list of unfinished games."""

from __future__ import annotations

import secrets
from typing import Any, Mapping

import sqlalchemy as sa
from flask import current_app
from sqlalchemy.orm import selectinload

from .. import store
from ..store import limits
from ..core.cards import Card
from ..core.protocol import GameDefinition, GameState
from ..extensions import db
from ..store.models import ABANDONED, FINISHED, HERE, PLAYING, GameRecord, SeatRecord
from ..solving import kept
from .errors import Conflict, Forbidden, NotFound, TooMany
from .join_codes import issue_join_code
from .play import after_finish, finish, game_to_change, play_computer_turns
from .seats import SeatSpec, carry_seats, give_token, hand_on_seats, held_seats


@store.transaction
def create_game(definition: GameDefinition, specs: list[SeatSpec], *, options: Mapping[str, Any] | None = None,
                deck: list[Card] | None = None, deck_name: str | None = None, claim: set[int] | None = None,
                in_transaction: bool = False, creator: str | None = None,
                dealt: GameState | None = None, setup_token: str | None = None) -> tuple[GameRecord, dict]:
    """Create a game; return it with the tokens of the seats this browser now holds.

    ``claim`` lists the seats this browser takes (by default every hot-seat seat); every other
    human seat gets a join code for its own device. Computer seats that start play at once.
    ``creator``: the client address setting the game up, held to ``GAMES_PER_HOUR`` (TooMany);
    with ``in_transaction`` it is counted in the caller's write transaction (a rematch).
    ``dealt``: the new game's state, dealt already (a rematch deals before it takes its lock).
    A deal that needs the job runner's answers (deal only winnable games) waits for them a
    moment (``solving.kept.deal``), never solving here. ``setup_token``: the set-up form's; if a
    game was created with it already (the same form posted twice, at once or one after the
    other), ``AlreadySetUp`` names that game and nothing is created."""
    options = definition.validate_options(options or {})
    state = dealt if dealt is not None else kept.deal(
        definition, [spec.name for spec in specs], options=options, seed=None if deck else secrets.randbits(63),
        stacked_deck=deck, address=creator or "", wait=not in_transaction)
    if claim is None:
        claim = {number for number, spec in enumerate(specs) if spec.device == HERE}
    record = store.new_record(definition, state, options=options, deck=[card.id for card in deck] if deck else None,
                              deck_name=deck_name, setup_token=setup_token or None)
    tokens = {"host": give_host_token(record)}
    for number, spec in enumerate(specs):
        seat = SeatRecord(number=number, name=state.names[number], is_ai=spec.is_ai, device=spec.device)
        if spec.is_ai:
            pass
        elif number in claim:
            tokens[str(number)] = give_token(seat)
        else:
            issue_join_code(seat)
        record.seats.append(seat)
    if creator is not None:
        count_game_set_up(creator, begun=in_transaction)  # begins the write transaction, if not begun
    elif not in_transaction:  # (a rematch creates its game inside its own locked transaction)
        store.begin_write()
    if setup_token:  # (under the write lock: of two posts at once, the second finds the first's game)
        refuse_a_second_set_up(setup_token)
    actions = play_computer_turns(state, record)  # each computer action makes a version
    kept.ask_for_table(record, state, creator or "")  # the position's question (its solver's verdict)
    results = state.results() if state.is_over() else None
    try:
        store.insert_game(record, state, actions, results=results)
    except sa.exc.IntegrityError:  # (another server's post of the same form, just now)
        if not setup_token:
            raise
        db.session.rollback()
        refuse_a_second_set_up(setup_token)
        raise
    if results is not None:
        finish(record, state, results)
    if not in_transaction:
        db.session.commit()
        if state.is_over():
            after_finish(record)
    return record, tokens


class AlreadySetUp(Exception):
    """The set-up form was posted before: ``record`` is the game it created."""

    def __init__(self, record: GameRecord):
        super().__init__(record.slug)
        self.record = record


def set_up_with(setup_token: str) -> GameRecord | None:
    """The game a set-up form with this token created, if any."""
    return db.session.scalar(sa.select(GameRecord).where(GameRecord.setup_token == setup_token).limit(1))


def refuse_a_second_set_up(setup_token: str) -> None:
    existing = set_up_with(setup_token)
    if existing is not None:
        db.session.rollback()
        raise AlreadySetUp(existing)


def give_host_token(record: GameRecord) -> str:
    token = store.new_token()
    record.host_token_hash = store.hash_token(token)
    return token


def count_game_set_up(address: str, *, begun: bool = False) -> None:
    """Count a game set up (or rematched) from ``address``, or refuse it (TooMany) past
    ``GAMES_PER_HOUR``: every game can add names to the score table and rows to the finished
    games, which must not grow without limit. Starts the write transaction that creates the game
    (unless ``begun``), so the count and the game are one."""
    limit = current_app.config["GAMES_PER_HOUR"]
    limits.begin_counting(begun=begun)
    if limits.recent(limits.GAME_SET_UP, address, 3600) >= limit:
        raise TooMany(f"This device has set up {limit} games (rematches count too) in the last hour: "
                      "finish or resume one of them, or wait a while before setting up another.")
    limits.count(limits.GAME_SET_UP, address, 3600)


def unfinished_games(limit: int = 50) -> list[GameRecord]:
    """The most recently played unfinished games, with their seats (one query for all of them)."""
    return list(db.session.scalars(
        sa.select(GameRecord).where(GameRecord.status == PLAYING).options(selectinload(GameRecord.seats))
        .order_by(GameRecord.updated_at.desc()).limit(limit)))


@store.transaction
def rematch(slug: str, tokens: Mapping[str, str], creator: str | None = None) -> tuple[GameRecord, dict]:
    """A new game with the same players, seats, options and stacked deck (a shuffled game is
    reshuffled).

    Every seat somebody holds passes to its holder at once (``hand_on_seats``): no join code
    exists for it, so nobody else can take it. This browser gets its seats now; the others follow
    with ``follow_rematch`` (their old table links to the new one). ``creator``: the client
    address asking, held to ``GAMES_PER_HOUR`` like a set-up (following a rematch made already
    is not counted)."""
    dealt = None
    before = store.find_game(slug)  # dealt before the lock is taken: a deal may wait for verdicts
    if before is not None and before.status == FINISHED and not before.rematch_slug:
        definition = store.definition_of(before)
        dealt = kept.deal(definition, [seat.name for seat in before.seats], options=store.options_of(before),
                          seed=None if before.deck_cards else secrets.randbits(63),
                          stacked_deck=store.stacked_deck_of(before), address=creator or "")
    record = game_to_change(slug)
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
                                      claim=set(), in_transaction=True, creator=creator, dealt=dealt)
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


@store.transaction
def abandon(slug: str, tokens: Mapping[str, str]) -> GameRecord:
    """The host ends an unfinished game: it leaves Menu A's list, and no result or score is
    recorded (an unfinished game changes no score)."""
    record = game_to_change(slug)
    if not held_seats(record, tokens).host:
        raise Forbidden("Only the host (the browser that set the game up) can abandon it.")
    if record.status != PLAYING:
        raise Conflict("This game is not being played any more.")
    store.save_game(record, None, [], status=ABANDONED)
    return record
