"""The table as a page shows it: one typed object (``TableView``), built once a request from the
game's row, its state and what this browser holds. The shared templates (``templates/table/``)
and each game's own (``templates/games/<key>/``) read its fields; what a seat sees is the game's
``view(seat)`` and what it may do its ``legal(seat)``."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any, Iterable, Mapping

from flask import url_for

from .. import store
from ..core.protocol import CORE_ACTIONS, TAKE_BACKS, GameDefinition, GameState, Move, Option, SeatResult, View
from ..store.models import ABANDONED, FINISHED, HERE, OWN, GameRecord, utcnow
from .errors import RELEASED
from .guides import GuideShown, shown as guide_shown
from .seats import SPECTATOR, Held, SeatLine, presence, seat_lines
from .standins import idle_seat, log_lines

LOG_LINES = 10  # the table's last lines (of the view's, LOG_KEPT); the whole game's log is a page of its own


class Clock:
    """How long a game has been played: from its first action to its end (or now). A template
    that shows a timer reads it; nothing is asked of the database unless one does."""

    def __init__(self, record: GameRecord):
        self.record = record

    @cached_property
    def started_at(self) -> datetime | None:
        """When the first action was applied (an imported game: when it was started), or None."""
        if self.record.imported:
            return self.record.created_at
        return store.first_action_at(self.record)

    @property
    def ended_at(self) -> datetime | None:
        if self.record.status == ABANDONED:
            return self.record.updated_at
        return self.record.finished_at

    @property
    def running(self) -> bool:
        return self.started_at is not None and self.ended_at is None

    @cached_property
    def seconds(self) -> int:
        """Whole seconds played so far (0 before the first action)."""
        if self.started_at is None:
            return 0
        return max(0, int(((self.ended_at or utcnow()) - self.started_at).total_seconds()))


@dataclass(frozen=True)
class Ask:
    """A question the table asks before it does something that costs points or removes a person
    (a move's ``Move.confirm``, the host releasing a seat): the confirmation step a page without
    JavaScript shows (static/js/app.js asks in a dialog instead). ``action`` and ``fields`` are
    the form that answers yes; ``back`` the table again, nothing done."""

    question: str
    yes: str
    action: str
    fields: list[tuple[str, str]]
    back: str


@dataclass(frozen=True)
class You:
    """Who this browser is at the table: the seat it plays now (``my_turn``), what it holds, and
    whether it only watches."""

    my_turn: bool
    watching: bool
    holds_seat: bool
    at_table: bool  # may make the table's moves (the next deal, a rematch)
    manages: bool  # sees the seats panel
    is_host: bool
    standin_me: bool  # the computer plays for this browser's seat
    handover: str | None  # the name of the player this shared device must be handed to first
    setup_devices: dict[int, str] = field(default_factory=dict)  # its seats, for a set-up like this one


@dataclass(frozen=True)
class Dock:
    """The dock under the board: the seat's moves (``legal(me)``, or the table's moves for those
    at the table), the cards selected, where the keyboard goes, and what the table says (a
    refusal, a notice, a question before a move)."""

    moves: list[Move]
    selected: set[str]
    focus: str  # where the keyboard goes on a page load: "hand", "moves" or nowhere
    message: str | None = None
    notice: str | None = None  # a message that is no refusal (a seat released)
    asking: Ask | None = None  # a confirmation step (templates/table/_confirm.html)
    # On a shared device waiting to be handed over: the seat of this device that may take back its
    # last action (its take-back moves are ``moves``), or None.
    take_back_seat: int | None = None

    @property
    def pick(self) -> bool:
        """Some move takes cards of the hand: the hand's cards can be selected."""
        return any(move.pick is not None for move in self.moves)

    @property
    def take_backs(self) -> list[Move]:
        """The seat's take-back moves (taking back its last action, or answering another seat's
        request): the dock shows them while it is not the seat's turn too."""
        return [move for move in self.moves if move.action in CORE_ACTIONS]


@dataclass(frozen=True)
class Seating:
    """The seats panel: every seat, and the idle person's seat the host may let the computer play."""

    seats: list[SeatLine]
    idle_seat: int | None
    own_device: str = OWN

    @property
    def waiting(self) -> list[SeatLine]:
        """Own-device seats nobody has joined yet."""
        return [seat for seat in self.seats if seat.device == OWN and not seat.claimed and not seat.is_ai]


@dataclass(frozen=True)
class Log:
    """The game's last lines, each with ``by`` (whom the computer played it for), numbered from
    ``start``; ``total``: how many lines the whole game's log has."""

    lines: list[dict[str, Any]]
    start: int
    total: int


@dataclass(frozen=True)
class Ending:
    """How the game ended, if it did: its results, its rematch, how long it was played."""

    finished: bool
    abandoned: bool
    results: list[SeatResult]
    rematch_slug: str | None
    clock: Clock


@dataclass
class TableView:
    """Everything the table's templates read: which table (``slug``, ``version``, the game's
    ``definition``), what this seat sees (``view``, the game's ``view(me)``), whose turn, and the
    parts the templates take (``you``, ``dock``, ``seating``, ``log``, ``ending``)."""

    slug: str
    version: int
    definition: GameDefinition
    deck_key: str | None  # the deck the cards' ids belong to
    view: View  # the game's view(me): what this browser may see
    me: int | None  # the seat whose view it is (None: a spectator's)
    turn: int | None
    options: dict[str, Any]  # as set up (a rematch is set up the same way)
    you: You
    dock: Dock
    seating: Seating
    log: Log
    ending: Ending
    steps: int = 0  # the game's logged actions up to this version (its live refresh sends them back)
    # The version after which this browser is shown the actions one after another (it is a few
    # behind: ``pages.show``), and where it fetches them (the web fills it in).
    paced_after: int | None = None
    steps_url: str | None = None
    replay: bool = False
    # What the job runner keeps of this position's question (app/solving: a solver's verdict and
    # hint), or None (the game asks none, or not now); the page never waits for it.
    analysis: Any = None
    # This browser's own settings of the game's table (the definition's ``preferences``).
    preferences: dict[str, Any] = field(default_factory=dict)
    hands_hidden: bool = True  # some seat sees cards a spectator may not (a spectator is told so)
    # A guided first game's step, as its seated learner reads it (None: no guide, or a spectator).
    guide: GuideShown | None = None

    @property
    def kind(self) -> str:
        return self.definition.key

    @property
    def house_rules(self) -> list[tuple[str, str]]:
        """The house rules this table plays by that differ from the rule book, and its take-backs
        when they are allowed, as (label, value in words): the table and its replay show them."""
        rules = self.definition.house_rules(self.options)
        take_backs = self.options.get(TAKE_BACKS.key, TAKE_BACKS.default)
        if self.definition.takes_back and take_backs != TAKE_BACKS.default:
            rules.append((TAKE_BACKS.label, TAKE_BACKS.words(take_backs)))
        return rules

    def context(self) -> dict[str, Any]:
        """The template context: the fields by name, ``kind``, and ``table`` itself."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)} | {"kind": self.kind, "table": self}

    def replace(self, **changes: Any) -> TableView:
        return dataclasses.replace(self, **changes)

    def with_dock(self, **changes: Any) -> TableView:
        """The same table, its dock changed (a question asked, a notice)."""
        return self.replace(dock=dataclasses.replace(self.dock, **changes))

    # -- the same game again, set up by the set-up form -------------------------------------------

    def setup_fields(self, changes: Mapping[str, Any] | None = None) -> list[tuple[str, str]]:
        """The set-up form's fields (``/setup/<key>``) for a new game like this one: the same
        seats (the ones this browser holds on this device) and options, with ``changes``."""
        fields = [("seats", str(len(self.seating.seats)))]
        for seat in self.seating.seats:
            fields += [(f"name{seat.number}", seat.player),
                       (f"device{seat.number}", self.you.setup_devices.get(seat.number, seat.device))]
            if seat.strength:  # a computer seat: of the same strength
                fields.append((f"strength{seat.number}", seat.strength))
        values = dict(self.options, **(changes or {}))
        for option in self.definition.options:
            fields.append((option.key, option_text(option, values.get(option.key, option.default))))
        return fields

    def setup_url(self, changes: Mapping[str, Any] | None = None) -> str:
        """The set-up form, filled in with ``changes`` and the options that differ from their
        defaults (for someone else to set the same game up)."""
        changes = dict(changes or {})
        args: dict[str, Any] = {key: option_text(self._option(key), value) for key, value in changes.items()}
        for option in self.definition.options:
            value = self.options.get(option.key, option.default)
            if option.key not in args and value != option.default:
                args[option.key] = option_text(option, value)
        return url_for("setup.game", key=self.kind, **args)

    def _option(self, key: str) -> Option:
        return next(option for option in self.definition.options if option.key == key)


def option_text(option: Option, value: Any) -> str:
    """An option's value as its set-up form field posts it (``Option.read`` reads it back)."""
    if option.kind == "bool":
        return "1" if value else "0"
    return str(value)


def table_view(record: GameRecord, state: GameState, held: Held, *, watching: bool = False,
               message: str | None = None, selected: Iterable[str] = (), idle_seconds: int = 0,
               results: list[SeatResult] | None = None, analysis: Any = None,
               preferences: Mapping[str, Any] | None = None) -> TableView:
    """The table as this browser (``held``) sees it now, or a spectator (``watching``).
    ``results``: the over game's ``results()``, if the request has them already."""
    seen = SPECTATOR if watching else presence(record, state, held)
    view = state.view(seen.shown)  # the rules decide what this seat may see
    turn = state.to_move()
    finished = record.status == FINISHED or state.is_over()
    abandoned = record.status == ABANDONED
    handover = state.label(seen.handover) if seen.handover is not None and not abandoned else None
    if abandoned:
        moves = []
    elif seen.shown is not None:
        moves = state.legal(seen.shown)
    elif seen.at_table and handover is None:
        moves = state.legal(None)  # the table's moves: the next deal
    else:
        moves = []
    take_back_seat = None
    if handover is not None and not abandoned and not finished:
        # (a shared device waiting for the next player: the one who just played may take it back)
        for seat in seen.seats:
            if state.take_back_moves(seat):
                take_back_seat, moves = seat, state.take_back_moves(seat)
                break
    if message is None and held.released and not watching:
        message = str(RELEASED)
    if message is None and record.steps >= store.MAX_ACTIONS and not finished and not abandoned:
        message = store.LOG_FULL  # (said before anyone tries a move that would be refused)
    log = view.get("log") or []  # the game's last lines
    log_total = state.log_total
    log_start = log_total - len(log)
    # the last LOG_LINES the web's log shows (not the lines that only repeat the board)
    lines = [line for line in log_lines(record, state, log, log_start) if line.get("say", "") is not None][-LOG_LINES:]
    my_turn = seen.shown is not None and seen.shown == turn and not abandoned
    focus = ""
    if my_turn and moves and not finished:
        # (a private move, arranging one's cards, picks cards at any time: the turn's moves decide)
        focus = ("hand" if any(move.pick is not None for move in moves if not move.private) and view.get("hand")
                 else "moves")
    return TableView(
        slug=record.slug, version=record.version, steps=record.steps, definition=state.definition,
        deck_key=state.deck.key if getattr(state, "deck", None) is not None else None,
        view=view, me=seen.shown, turn=turn, options=store.options_of(record),
        you=You(my_turn=my_turn, watching=watching, holds_seat=bool(seen.seats), at_table=seen.at_table,
                manages=seen.manages, is_host=seen.host,
                standin_me=seen.shown is not None and record.seats[seen.shown].ai_standin and not finished,
                handover=handover, setup_devices={number: HERE for number in seen.seats}),
        dock=Dock(moves=moves, selected=set(selected), focus=focus, message=message, take_back_seat=take_back_seat),
        seating=Seating(seats=seat_lines(record, state, host=seen.host, open_for_joining=not (finished or abandoned)),
                        idle_seat=None if watching else idle_seat(record, state, held, idle_seconds)),
        log=Log(lines, lines[0]["number"] if lines else log_total + 1, log_total),
        ending=Ending(finished=finished, abandoned=abandoned,
                      results=(results if results is not None else state.results()) if finished else [],
                      rematch_slug=record.rematch_slug, clock=Clock(record)),
        analysis=analysis, preferences=dict(preferences or {}), hands_hidden=bool(state.seats_with_private_cards()),
        guide=None if watching or not seen.seats else guide_shown(record, state.definition))
