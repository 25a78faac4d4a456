"""The tables' queries: what the web shows of the games, as view models built from the rows (the
web never reads a row). A table as one browser sees it (``show``), the steps a browser is shown
one after another, a replay's step, the whole game's log, the unfinished and finished games, a
seat's invitation, a whole solution, an export.

Whoever asks is a ``Looker``: a browser (its key, see ``holdings``), its client address and its
table settings per game; a spectator is a looker who holds nothing (``watching``).
"""

from __future__ import annotations

from flask_babel import gettext

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from flask import current_app
from sqlalchemy.orm import selectinload

from .. import store
from ..core.protocol import GameDefinition, GameState, IllegalAction, OptionError
from ..extensions import db
from ..solving import kept
from ..store.models import ABANDONED, FINISHED, OWN, PLAYING, GameRecord
from . import holdings, replays
from .errors import Forbidden, GameNotFound, NotFound
from .play import Done
from .seats import Held, held_seats
from .standins import log_lines
from .views import Log, TableView, table_view

# A browser this many actions behind is shown the table at once, not step by step.
MAX_PACED = 15
LOG_PAGE = 100  # lines of the whole game's log a page shows
MAX_STEPS_ASKED = 60  # paced steps asked for at a time


@dataclass(frozen=True)
class Looker:
    """Who looks at a table: a browser (``holder``: what it holds, see ``holdings``), its client
    address, its table settings by game (``GameDefinition.preferences``, as its session keeps
    them), and whether it only watches (a spectator's view, even of a table it plays at)."""

    holder: holdings.Holder = holdings.NOBODY
    address: str = ""
    preferences: Mapping[str, Any] = field(default_factory=dict)
    watching: bool = False

    def settings_of(self, definition: GameDefinition) -> dict[str, Any]:
        """This browser's settings of ``definition``'s table, the defaults filled in."""
        mine = self.preferences.get(definition.key)
        mine = mine if isinstance(mine, Mapping) else {}
        values = {}
        for option in definition.preferences:
            try:
                values[option.key] = option.read(mine[option.key]) if option.key in mine else option.default
            except OptionError:
                values[option.key] = option.default
        return values


SPECTATOR = Looker(watching=True)


def game_row(slug: str) -> GameRecord:
    record = store.find_game(slug)
    if record is None:
        raise GameNotFound(gettext("There is no such game: check the link, or pick a game from the home page."))
    return record


def held_by(record: GameRecord, looker: Looker) -> Held:
    return Held() if looker.watching else held_seats(record, holdings.held_hashes(looker.holder, record))


def exists(slug: str) -> bool:
    return store.version_of(slug) is not None


def let_go_of_the_database() -> None:
    """End the request's use of the database (a long answer, such as an event stream, holds no
    connection while it lasts)."""
    db.session.remove()


def version_of(slug: str) -> int | None:
    """The game's version alone (the cheap poll of an open table): None if there is no such game."""
    return store.version_of(slug)


# -- a table ------------------------------------------------------------------------------------------


def show(slug: str, looker: Looker, *, done: Done | None = None, selected: Sequence[str] = (),
         message: str | None = None, since: int | None = None, since_steps: int | None = None) -> TableView:
    """The table ``slug`` as ``looker`` sees it now; ``done``: the action this request just
    applied, whose game, held seats and results are used as they are (nothing is read again).
    ``since``: the version the browser showed before; if it is a few actions behind, the view
    says from where to show them one after another (``TableView.paced_after``). ``since_steps``:
    the game's logged actions at that version, as the browser's refresh says them."""
    if done is not None:
        record, state, held = done.record, done.state, (Held() if looker.watching else done.held)
    else:
        record = game_row(slug)
        state, held = store.shown_state(record), held_by(record, looker)
    table = table_view(record, state, held, watching=looker.watching, message=message, selected=selected,
                       idle_seconds=current_app.config["IDLE_SECONDS"],
                       results=done.results if done is not None else None,
                       preferences=looker.settings_of(state.definition))
    # The kept answer of the position's question (a solver's verdict), never worked out here; the
    # player's own page asks it if nobody has (a spectator's never does).
    table.analysis = kept.for_table(record, state, may_ask=table.you.my_turn and not looker.watching,
                                    address=looker.address)
    if since is not None and since < record.version and replays.replayable(record):
        if since_steps is not None and since_steps <= record.steps:
            behind = record.steps - since_steps  # (a wrong number only changes whether they are paced)
        else:
            behind = replays.count_actions(record, since, record.version)
        if 0 < behind <= MAX_PACED:
            table.paced_after = since
    return table


def held(slug: str, looker: Looker) -> Held:
    """What ``looker`` holds at table ``slug``."""
    return held_by(game_row(slug), looker)


@dataclass(frozen=True)
class Step:
    """One action of a game as a spectator saw the board after it (paced steps, a replay)."""

    version: int
    text: str  # the action's log lines
    table: TableView
    events: list[dict[str, Any]] = field(default_factory=list)  # ...as the game logged them (their say)


def paced_steps(slug: str, after: int, upto: int, me: int | None) -> list[Step]:
    """The boards after each action that made the versions after ``after`` up to ``upto``
    (``MAX_STEPS_ASKED`` at most at a time), as a spectator saw each; ``me``: only which seat's
    badge says "you"."""
    upto = min(upto, after + MAX_STEPS_ASKED)
    record = game_row(slug)
    steps = []
    for step, state in replays.steps_between(record, after, upto):
        table = table_view(record, state, Held(), watching=True).replace(me=me, version=step.version, replay=True)
        steps.append(Step(step.version, " ".join(event["text"] for event in step.events), table, step.events))
    return steps


# -- the whole game's log ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LogPage:
    table: TableView  # its ``log`` is the page's lines
    page: int
    pages: int
    note: str | None  # which lines the log holds, when not every round's


def log_page(slug: str, looker: Looker, page: int | None) -> LogPage:
    """``LOG_PAGE`` lines of the whole game's log (``page`` 1 is the deal's; None: the last), as
    ``looker`` may see them: read from the stored actions that hold them and shown through the
    game's ``shown_log``."""
    record = game_row(slug)
    state = store.shown_state(record)
    table = table_view(record, state, held_by(record, looker), watching=looker.watching)
    total = state.log_total
    pages = max(1, -(-total // LOG_PAGE))
    page = pages if page is None else max(1, min(page, pages))
    start = (page - 1) * LOG_PAGE
    shown = state.shown_log(table.me, store.log_lines(record, start, min(total, start + LOG_PAGE)), start)
    lines = log_lines(record, state, shown, start)
    return LogPage(table.replace(log=Log(lines, start + 1, total)), page, pages, record.log_note)


# -- lists of games -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnfinishedGame:
    slug: str
    game_name: str
    names: list[str]
    headline: str
    mine: bool  # the looker holds a seat there
    open_seats: list[int]
    created_at: datetime


def unfinished(looker: Looker, limit: int = 50) -> list[UnfinishedGame]:
    """The most recently played unfinished games, with their seats (one query for all of them),
    and which of them ``looker`` plays at; not the guided first games."""
    records = list(db.session.scalars(
        sa.select(GameRecord).where(GameRecord.status == PLAYING, GameRecord.guide_step.is_(None)).options(selectinload(GameRecord.seats))
        .order_by(GameRecord.updated_at.desc()).limit(limit)))
    mine = holdings.everything_held(looker.holder) if records else {}
    games = []
    for record in records:
        held = held_seats(record, mine[record.id]) if record.id in mine else Held()
        games.append(UnfinishedGame(
            slug=record.slug, game_name=store.definition_of(record).name, names=[seat.name for seat in record.seats],
            headline=record.headline or "", mine=bool(held.seats),
            open_seats=[s.number for s in record.seats if not s.is_ai and s.token_hash is None],
            created_at=record.created_at))
    return games


@dataclass(frozen=True)
class FinishedGame:
    slug: str
    game_name: str
    results: list[dict[str, Any]]  # each seat's result in words: {"text", "won"}
    names: list[str]
    finished_at: datetime | None
    imported: bool
    replayable: bool
    why_not: str | None  # why it has no replay


def finished(page: int, per_page: int, *, kind: str | None = None,
             name: str | None = None) -> tuple[list[FinishedGame], bool]:
    """A page of the finished games, most recent first (1 is the first page), and whether there
    are more; only games of ``kind`` (a game's key), and only those a player of which has a name
    containing ``name``, if given."""
    records = replays.finished_games(per_page + 1, (page - 1) * per_page, kind=kind, name=name)
    games = []
    for record in records[:per_page]:
        definition = store.definition_of(record)
        games.append(FinishedGame(
            slug=record.slug, game_name=definition.name, results=result_words(definition, replays.results_of(record)),
            names=[seat.name for seat in record.seats], finished_at=record.finished_at, imported=record.imported,
            replayable=replays.replayable(record), why_not=replays.not_replayable_reason(record)))
    return games, len(records) > per_page


def result_words(definition: GameDefinition, results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each seat's result, for the page to say in its reader's words ("Sam won, 2 points", "Ann
    lost, 14 points"): the name, whether it won (which to stress), its score if any and the game's
    ``score_unit``."""
    return [{"name": result.get("name"), "won": bool(result.get("won")), "score": result.get("score"),
             "unit": definition.score_unit} for result in results]


# -- a finished game: replay and export -----------------------------------------------------------------


def finished_row(slug: str) -> GameRecord:
    record = game_row(slug)
    if record.status == ABANDONED:
        raise NotFound(gettext("This game was abandoned before its end: it has no replay and no export."))
    if record.status != FINISHED:
        raise NotFound(gettext("This game is not over yet: its replay and its export come once it ends."))
    return record


@dataclass(frozen=True)
class ShownHand:
    """A hand as a finished game's replay shows it: whose, and its cards' ids."""

    holder: str
    cards: list[str]


@dataclass(frozen=True)
class ReplayStep:
    """A finished game after ``step`` of its ``total`` actions, as a spectator saw it then;
    ``made``: the step's action (None for the deal); ``rounds``: where each round starts, to
    jump to; ``hands``: every hand at that step (once the game is over, nothing is hidden)."""

    step: int
    total: int
    made: replays.Step | None
    table: TableView
    definition: GameDefinition
    rounds: list[replays.RoundStart] = field(default_factory=list)
    hands: list[ShownHand] = field(default_factory=list)

    @property
    def round_now(self) -> replays.RoundStart | None:
        """The round this step is part of (the last to start at or before it)."""
        return next((start for start in reversed(self.rounds) if start.step <= self.step), None)


def replayed(table: TableView, state: GameState) -> TableView:
    """A spectator's table of a step of a replay (or a solution): over once its state is, with
    the results its state makes then."""
    ending = dataclasses.replace(table.ending, finished=state.is_over(),
                                 results=state.results() if state.is_over() else [])
    return table.replace(replay=True, ending=ending)


def replay_step(slug: str, step: int) -> ReplayStep:
    """A finished game's replay at ``step``: the board as a spectator saw it, and, since nothing
    is secret once the game is over, every hand as it was then. ``ReplayError`` for a game that
    cannot be replayed (stored before replays were kept)."""
    record = finished_row(slug)
    state, made, total = replays.state_at(record, step)
    table = replayed(table_view(record, state, Held(), watching=True), state)
    hands = ([ShownHand(holder, [card.id for card in cards]) for holder, cards in state.every_hand()]
             if record.status == FINISHED else [])
    return ReplayStep(made.number if made else 0, total, made, table, store.definition_of(record),
                      replays.round_starts(record), hands)


def definition_of(slug: str) -> GameDefinition:
    return store.definition_of(game_row(slug))


def export(slug: str) -> tuple[str, Iterator[str]]:
    """A finished game's export: its file name, and its JSON a piece at a time (``ReplayError``
    at once if it cannot be exported)."""
    record = finished_row(slug)
    pieces = replays.export(record)
    name = (f"{record.kind}-{record.finished_at:%Y-%m-%d}-{record.slug}.json" if record.finished_at
            else f"{record.slug}.json")
    return name, pieces


# -- a seat's invitation ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Invitation:
    """An own-device seat as its invitation shows it, for the host's eyes only."""

    slug: str
    version: int
    number: int
    name: str
    joined: bool  # somebody holds it now
    join_code: str | None  # while it can be joined


def invitation(slug: str, looker: Looker, number: int) -> Invitation | None:
    """The invitation of seat ``number`` (None: the seat is not one to invite anybody to, or
    its code stopped working); ``Forbidden`` for a browser that is not the host."""
    record = game_row(slug)
    if not held_by(record, looker).host:
        raise Forbidden(gettext("Only the host's browser (the one that set the game up) shows a seat's join link."))
    if not 0 <= number < len(record.seats):
        raise NotFound(gettext("This game has no such seat."))
    seat = record.seats[number]
    if seat.device != OWN:
        return None
    if seat.token_hash is not None:
        return Invitation(record.slug, record.version, number, seat.name, True, None)
    if not seat.code_is_live:
        return None
    return Invitation(record.slug, record.version, number, seat.name, False, seat.join_code)


@dataclass(frozen=True)
class SeatToRelease:
    """An own-device seat somebody holds, which the host may release (after a question)."""

    number: int
    name: str


def seat_to_release(slug: str, looker: Looker, number: int | None) -> SeatToRelease | None:
    """Seat ``number`` if ``looker`` is the host and somebody holds it on their own device (the
    host is asked first before it is released); None otherwise."""
    record = game_row(slug)
    if number is None or not 0 <= number < len(record.seats) or not held_by(record, looker).host:
        return None
    seat = record.seats[number]
    if seat.token_hash is None or seat.is_ai or seat.device != OWN:
        return None
    return SeatToRelease(number, seat.name)


def seat_name(slug: str, number: int) -> str:
    record = game_row(slug)
    return record.seats[number].name if 0 <= number < len(record.seats) else ""


# -- a whole solution ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Solution:
    """A whole winning line of a game's deal, kept by the job runner, stepped like a replay."""

    definition: GameDefinition
    slug: str
    shown: Any  # what is kept of the deal's question (``kept.Shown``)
    line: list[dict[str, Any]] | None  # the winning line's actions (None: not known)
    step: int = 0
    made: list[dict[str, Any]] = field(default_factory=list)  # the step's log lines
    table: TableView | None = None


class SolutionRefused(Forbidden):
    """A whole solution is offered only once the game is over or lost."""


def solution(slug: str, looker: Looker, step: int) -> Solution:
    """The whole solution of the game's deal, ``step`` of its moves made; offered once the game
    is over or lost (the game's analyst says when: ``SolutionRefused`` before)."""
    record = game_row(slug)
    definition = store.definition_of(record)
    analyst = definition.analyst
    start = store.initial_state(record)
    if analyst is None or start is None:
        raise NotFound(gettext("This game has no solutions to show."))
    now = store.load_state(record)
    position = kept.for_table(record, now, may_ask=False, address=looker.address)
    answer = position.answer if position is not None and position.known else None
    if not analyst.solution_offered(now, answer):
        raise SolutionRefused(gettext("The solution is shown once the game is over, or can no longer be won."))
    question = analyst.start_question(start)
    shown = kept.shown_for_question(question) if question is not None else None
    if shown is not None and shown.state == kept.NOT_ASKED and held_by(record, looker).seats:
        shown = kept.for_table(record, start, may_ask=True, address=looker.address) or shown
    line = analyst.solution(shown.answer) if shown is not None and shown.known and shown.answer else None
    if line is None:
        return Solution(definition, slug, shown, None)
    step = max(0, min(step, len(line)))
    state: GameState = start
    made: list[dict[str, Any]] = []
    try:
        for data in line[:step]:
            made = state.apply(state.to_move(), definition.action_from_dict(data)).events
    except IllegalAction:  # (a kept line the rules refuse would be a bug: shown as no solution)
        return Solution(definition, slug, shown, None)
    board = replayed(table_view(record, state, Held(), watching=True), state)
    return Solution(definition, slug, shown, line, step, made, board)
