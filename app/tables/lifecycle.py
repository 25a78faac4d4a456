"""A game's life at the table: set up (its seats, tokens and join codes), rematched with the same
players, abandoned by its host."""

from __future__ import annotations

from flask_babel import gettext

import secrets
from datetime import timedelta
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from flask import current_app

from .. import store
from ..core.cards import Card
from ..core.protocol import NORMAL, GameDefinition, GameState
from ..extensions import db
from ..solving import kept
from ..store import limits
from ..store.models import ABANDONED, FINISHED, HERE, PLAYING, GameRecord, SeatRecord, utcnow
from ..core import guides as scripts
from . import holdings, news
from .guides import guide_for
from .errors import Conflict, Forbidden, NotFound, StillChecking, TooMany
from .join_codes import issue_join_code
from .play import play_computer_turns
from .saving import save_and_score
from .seats import SeatSpec, carry_seats, give_seat, hand_on_seats, held_seats, new_token_hash


@dataclass(frozen=True)
class SetUp:
    """A game to set up: its seats, options and stacked deck, as a set-up form chose them.

    ``claim`` lists the seats the browser setting it up takes (by default every hot-seat seat);
    every other person's seat gets a join code for its own device. ``token``: the set-up form's,
    so the same form posted twice (at once or one after the other) sets up one game."""

    definition: GameDefinition
    seats: list[SeatSpec]
    options: Mapping[str, Any] = field(default_factory=dict)
    deck: list[Card] | None = None
    deck_name: str | None = None
    claim: frozenset[int] | None = None
    token: str | None = None
    guide_step: int | None = None  # a guided first game: the step its script starts at


class AlreadySetUp(Exception):
    """The set-up form was posted before: ``slug`` is the game it set up."""

    def __init__(self, slug: str):
        super().__init__(slug)
        self.slug = slug


@news.command
def set_up(setup: SetUp, holder: holdings.Holder, address: str) -> str:
    """Set a game up for ``holder`` (it has a key: the game's host, holding the seats it claims), from client ``address`` (held to ``GAMES_PER_HOUR``: ``TooMany``); returns its slug.
    Computer seats that start play at once. A deal that needs the job runner's answers (deal
    only winnable games) waits for them a moment (``solving.kept.deal``), never solving here. A
    form posted again (``setup.token``) raises ``AlreadySetUp`` naming the game it set up."""
    if setup.token and (done := set_up_with(setup.token)) is not None:
        raise AlreadySetUp(done)
    record = create_game(setup, browser=holder.key, creator=address)
    holdings.reread(holder, record)
    return record.slug


def create_game(setup: SetUp, *, browser: str | None, creator: str | None, in_transaction: bool = False,
                dealt: GameState | None = None) -> GameRecord:
    """Create the game ``setup`` says and give the browser with key ``browser`` its host role and
    claimed seats (None: nobody yet; a rematch hands its seats on itself), for the client address
    ``creator`` (None: a tool's game, not counted against any address). With ``in_transaction`` it is made and counted inside the caller's write
    transaction (a rematch, which holds the finished game's lock and deals before it takes it:
    ``dealt``)."""
    definition = setup.definition
    options = definition.validate_options(setup.options)
    state = dealt if dealt is not None else deal(definition, [spec.name for spec in setup.seats], options,
                                                 setup.deck, creator or "", wait=not in_transaction)
    claim = setup.claim if setup.claim is not None else frozenset(
        number for number, spec in enumerate(setup.seats) if spec.device == HERE)
    record = store.new_record(definition, state, options=options,
                              deck=[card.id for card in setup.deck] if setup.deck else None,
                              deck_name=setup.deck_name, setup_token=setup.token or None)
    record.host_token_hash = new_token_hash()
    record.guide_step = setup.guide_step
    mine = {holdings.HOST: record.host_token_hash}
    for number, spec in enumerate(setup.seats):
        seat = SeatRecord(number=number, name=state.names[number], is_ai=spec.is_ai, device=spec.device,
                          strength=(spec.strength or NORMAL) if spec.is_ai else None)
        if spec.is_ai:
            pass
        elif number in claim:
            mine[str(number)] = give_seat(seat)
        else:
            issue_join_code(seat)
        record.seats.append(seat)
    if creator is not None:
        count_game_set_up(creator, begun=in_transaction)  # begins the write transaction, if not begun
    elif not in_transaction:
        store.begin_write()
    if setup.token:  # (under the write lock: of two posts at once, the second finds the first's game)
        refuse_a_second_set_up(setup.token)
    actions = play_computer_turns(state, record)  # each computer action makes a version
    results = state.results() if state.is_over() else None
    if results is not None:
        record.results_recorded = False
    try:
        store.insert_game(record, state, actions, results=results)
    except sa.exc.IntegrityError:  # (another server's post of the same form, just now)
        if not setup.token:
            raise
        db.session.rollback()
        refuse_a_second_set_up(setup.token)
        raise
    if browser is not None:
        holdings.hold_hashes(holdings.browser_hash(browser), record, mine)
    news.tell(news.position_reached, record, state=state, address=creator or "")
    if results is not None:
        news.tell(news.game_finished, definition, slug=record.slug)
    if not in_transaction:
        db.session.commit()
    return record


def deal(definition: GameDefinition, names: list[str], options: Mapping[str, Any], deck: list[Card] | None,
         address: str, wait: bool = True) -> GameState:
    """A new game's state: shuffled with a fresh seed, or dealt from a stacked ``deck``."""
    try:
        return kept.deal(definition, names, options=options, seed=None if deck else secrets.randbits(63),
                         stacked_deck=deck, address=address, wait=wait)
    except kept.StillChecking as checking:
        raise StillChecking(str(checking)) from None


def set_up_with(setup_token: str) -> str | None:
    """The slug of the game a set-up form with this token created, if any."""
    return db.session.scalar(sa.select(GameRecord.slug).where(GameRecord.setup_token == setup_token).limit(1))


def refuse_a_second_set_up(setup_token: str) -> None:
    existing = set_up_with(setup_token)
    if existing is not None:
        db.session.rollback()
        raise AlreadySetUp(existing)


def count_game_set_up(address: str, *, begun: bool = False) -> None:
    """Count a game set up (or rematched) from ``address``, or refuse it (TooMany) past
    ``GAMES_PER_HOUR``: every game can add names to the score table and rows to the finished
    games, which must not grow without limit. Starts the write transaction that creates the game
    (unless ``begun``), so the count and the game are one."""
    limit = current_app.config["GAMES_PER_HOUR"]
    limits.begin_counting(begun=begun)
    if limits.recent(limits.GAME_SET_UP, address, 3600) >= limit:
        raise TooMany(gettext("This device has set up %(limit)s games (rematches count too) in the last hour: "
                              "finish or resume one of them, or wait a while before setting up another.", limit=limit))
    limits.count(limits.GAME_SET_UP, address, 3600)


@news.command
def start_guide(key: str, holder: holdings.Holder, address: str) -> str:
    """Set up game ``key``'s guided first game for ``holder`` (its host, holding the learner's
    seat), counted like any set-up from ``address``; returns its slug."""
    definition, guide = guide_for(key)
    seats = [SeatSpec(name, number != scripts.GUIDED_SEAT, HERE) for number, name in enumerate(guide.names)]
    setup = SetUp(definition, seats, options=dict(guide.options), deck=guide.cards(definition), guide_step=0)
    record = create_game(setup, browser=holder.key, creator=address)
    holdings.reread(holder, record)
    store.begin_write()
    leave_idle_guides()
    db.session.commit()
    return record.slug


IDLE_GUIDE = timedelta(days=1)  # a guided first game untouched this long was left part-way
IDLE_GUIDES_AT_ONCE = 20  # (each new guide leaves at most this many: the work of a set-up stays small)


def leave_idle_guides() -> None:
    """Guided first games left part-way and untouched for a day end as abandoned (they are listed
    nowhere, and nobody would come back to them), a few with each new guided game."""
    idle = (sa.select(GameRecord.id).where(GameRecord.status == PLAYING, GameRecord.guide_step.is_not(None),
                                          GameRecord.updated_at < utcnow() - IDLE_GUIDE)
            .order_by(GameRecord.updated_at).limit(IDLE_GUIDES_AT_ONCE).scalar_subquery())
    db.session.execute(sa.update(GameRecord).where(GameRecord.id.in_(idle)).values(status=ABANDONED)
                       .execution_options(synchronize_session=False))


# -- the same players again ---------------------------------------------------------------------------


@news.command
def rematch(slug: str, holder: holdings.Holder, address: str) -> str:
    """A new game with the same players, seats, options and stacked deck (a shuffled game is
    reshuffled); returns its slug.

    Every seat somebody holds passes to its holder at once (``hand_on_seats``): no join code
    exists for it, so nobody else can take it, and every browser that held seats at the
    finished table holds them in the rematch (its page there says so). ``address``: the client
    asking, held to ``GAMES_PER_HOUR`` like a set-up (a rematch made already is not counted)."""
    dealt = None
    before = store.find_game(slug)  # dealt before the lock is taken: a deal may wait for verdicts
    if before is not None and before.status == FINISHED and not before.rematch_slug:
        dealt = deal(store.definition_of(before), [seat.name for seat in before.seats], store.options_of(before),
                     store.stacked_deck_of(before), address)
    record = store.lock_game(slug)
    if record is None:
        raise NotFound("There is no such game.")
    mine = holdings.held_hashes(holder, record)
    if not held_seats(record, mine).at_table:
        raise Forbidden(gettext("Only the players at this table can start a rematch."))
    if record.status != FINISHED:
        raise Conflict(gettext("The game is still being played."))
    if record.rematch_slug:
        db.session.commit()
        return follow_rematch(slug, holder)
    specs = [SeatSpec(s.name, s.is_ai, s.device, s.strength) for s in record.seats]  # (each computer's strength kept)
    # The new game and the old game's link to it are one transaction, made while the old game
    # is locked: a doubled Rematch click (or both players at once) makes one rematch, not two.
    setup = SetUp(store.definition_of(record), specs, options=store.options_of(record),
                  deck=store.stacked_deck_of(record), deck_name=record.deck_name, claim=frozenset())
    new_record = create_game(setup, browser=None, creator=address, in_transaction=True, dealt=dealt)
    hand_on_seats(record, new_record)
    for browser_hash, hashes in holdings.holders(record).items():
        carried, _lost = carry_seats(record, new_record, hashes)
        holdings.hold_hashes(browser_hash, new_record, carried)
    save_and_score(record, None, [], rematch_slug=new_record.slug)
    return new_record.slug


@news.command
def follow_rematch(slug: str, holder: holdings.Holder) -> str:
    """The rematch of a finished game, for a browser that held seats there (it holds them in the
    rematch since it was made); a browser whose seats there are all gone (the host released them
    in the rematch) is told so (Conflict)."""
    record = store.find_game(slug)
    if record is None or not record.rematch_slug:
        raise NotFound("There is no rematch of this game.")
    mine = holdings.held_hashes(holder, record)
    if not held_seats(record, mine).at_table:
        raise Forbidden(gettext("Only the players at this table can join its rematch."))
    new_record = store.find_game(record.rematch_slug)
    if new_record is None:
        raise NotFound("There is no rematch of this game.")
    carried, lost = carry_seats(record, new_record, mine)
    if lost and not any(role != holdings.HOST for role in carried):
        names = ", ".join(new_record.seats[number].name for number in sorted(lost))
        raise Conflict(gettext("Your seat in the rematch (%(names)s) is no longer yours: the host released it. "
                               "Ask the host for its new code to join, or watch the rematch.", names=names))
    held_there = holdings.reread(holder, new_record)
    if carried and holder.key and any(held_there.get(role) != value for role, value in carried.items()):
        # (a browser that held its seats by an older cookie's tokens when the rematch was made)
        store.begin_write()
        holdings.hold_hashes(holdings.browser_hash(holder.key), new_record, carried)
        db.session.commit()
        holdings.reread(holder, new_record)
    return new_record.slug


@news.command
def abandon(slug: str, holder: holdings.Holder) -> None:
    """The host ends an unfinished game: it leaves the list of unfinished games, and no result or
    score is recorded (an unfinished game changes no score)."""
    record = store.lock_game(slug)
    if record is None:
        raise NotFound("There is no such game.")
    if not held_seats(record, holdings.held_hashes(holder, record)).host:
        raise Forbidden(gettext("Only the host (the browser that set the game up) can abandon it."))
    if record.status != PLAYING:
        raise Conflict(gettext("This game is not being played any more."))
    save_and_score(record, None, [], status=ABANDONED)
