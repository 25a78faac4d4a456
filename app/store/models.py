"""Database rows. Only app/store/__init__.py turns game rows into game states and back."""

from __future__ import annotations

from datetime import datetime, timezone

import sqlalchemy as sa
from sqlalchemy.engine.default import DefaultExecutionContext
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ..core.names import search_key
from ..extensions import Model

PLAYING = "playing"
FINISHED = "finished"  # the state says the game is over (store.save_game keeps the two in step)
ABANDONED = "abandoned"  # the host ended it unfinished: listed nowhere, no score changed
HERE = "here"  # a hot-seat seat, played on the host's device
OWN = "own"  # a seat played from its own device, claimed with a join link


def utcnow() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def _search_key_of_name(context: DefaultExecutionContext) -> str:
    # (SQLAlchemy leaves get_current_parameters unannotated: it answers the row's parameters, a dict)
    return search_key(context.get_current_parameters()["name"])  # type: ignore[no-untyped-call]


class ScoreEntry(Model):
    """One row of Mason Rummy's score table (R7.4). ``name_key`` makes names unique regardless
    of case (R3.2)."""

    __tablename__ = "scores"

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(24))
    name_key: Mapped[str] = mapped_column(sa.String(100), unique=True)
    # The name as a search compares it (no accents, case folded: "zoe" finds "Zoë").
    search_key: Mapped[str] = mapped_column(sa.String(100), default=_search_key_of_name, server_default="")
    won: Mapped[int] = mapped_column(default=0)
    lost: Mapped[int] = mapped_column(default=0)
    best: Mapped[int | None] = mapped_column(default=None)


class GameStat(Model):
    """One name's statistics in one game (not Mason Rummy, which keeps its R7.4 score table):
    ``figures`` is a JSON object of the game's own figures (its definition's ``statistics``)."""

    __tablename__ = "game_stats"
    __table_args__ = (sa.UniqueConstraint("game", "name_key"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(sa.String(16))
    name: Mapped[str] = mapped_column(sa.String(24))
    name_key: Mapped[str] = mapped_column(sa.String(100))
    search_key: Mapped[str] = mapped_column(sa.String(100), default=_search_key_of_name, server_default="")
    figures: Mapped[str] = mapped_column(sa.Text, default="{}")


class HouseRuleSet(Model):
    """A set of house rules some game was played by: ``game`` is the ``game`` of its statistics'
    rows (the game's key and a digest of its rules), ``options`` the options that differ from the
    rule book, as JSON, so the statistics of each set can be named in words."""

    __tablename__ = "house_rule_sets"

    game: Mapped[str] = mapped_column(sa.String(16), primary_key=True)
    definition_key: Mapped[str] = mapped_column(sa.String(16), index=True)
    options: Mapped[str] = mapped_column(sa.Text, default="{}")
    first_played_at: Mapped[datetime] = mapped_column(default=utcnow)


class GameStatItem(Model):
    """One name's statistics on one item of a game (a deal number of Seahaven Towers): the
    figures of the game's statistics kept per item (``Stat.per_item``), as JSON like
    ``GameStat``'s."""

    __tablename__ = "game_stat_items"
    __table_args__ = (sa.UniqueConstraint("game", "item", "name_key"),
                      sa.Index("ix_game_stat_items_name", "game", "name_key", "updated_at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(sa.String(16))
    item: Mapped[str] = mapped_column(sa.String(40))
    name: Mapped[str] = mapped_column(sa.String(24))
    name_key: Mapped[str] = mapped_column(sa.String(100))
    figures: Mapped[str] = mapped_column(sa.Text, default="{}")
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)


# What ``Analysis.status`` says (app/solving): asked, being worked out, answered, or not
# answered within its budget.
WAITING, WORKING, ANSWERED, TOO_HARD = "waiting", "working", "answered", "too_hard"
# ``Analysis.kind``: a question, a computer's turns to play, or an exported game's file to check
QUESTION, TURN, IMPORT = "question", "turn", "import"


class Analysis(Model):
    """Work done off the request path by the job runner (app/solving): a question about a
    position (a solver's verdict) and, once worked out, its answer, kept for every game and
    server that meets the position (``key``); a game whose computer player is to move and
    plays off the request path (``kind`` turn, ``key`` "turn:<slug>", removed once played); or
    an exported game's file to replay through its rules (``kind`` import, ``key``
    "import:<digest>", the file in ``question`` until its verdict is the ``answer``). Rows
    waiting are taken in ``priority`` order (then oldest first)."""

    __tablename__ = "analyses"
    __table_args__ = (sa.Index("ix_analyses_status_priority", "status", "priority", "id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(sa.String(64), unique=True)
    kind: Mapped[str] = mapped_column(sa.String(8), default=QUESTION)
    game: Mapped[str] = mapped_column(sa.String(16))
    status: Mapped[str] = mapped_column(sa.String(12), default=WAITING)
    question: Mapped[str | None] = mapped_column(sa.Text, default=None)  # JSON; dropped once answered
    requires: Mapped[str] = mapped_column(sa.String(60), default="")  # answer keys asked for, space separated
    answer: Mapped[str | None] = mapped_column(sa.Text, default=None)  # JSON
    priority: Mapped[int] = mapped_column(default=0)
    spent: Mapped[int] = mapped_column(default=0)  # work spent on it so far (a solver's positions)
    waiting_games: Mapped[str] = mapped_column(sa.String(200), default="")  # slugs told when it is answered
    asked_by: Mapped[str] = mapped_column(sa.String(64), default="")
    asked_at: Mapped[datetime] = mapped_column(default=utcnow)
    claimed_by: Mapped[str | None] = mapped_column(sa.String(80), default=None)  # host:pid of the runner
    claimed_at: Mapped[datetime | None] = mapped_column(default=None)
    answered_at: Mapped[datetime | None] = mapped_column(default=None)


class GameRecord(Model):
    """A game of any kind: its whole state as JSON (read by the game ``kind``'s definition), its
    set-up options, and a version bumped by every applied action. ``initial_state`` is the state
    as dealt, from which the action log replays the game; ``deck_cards`` the stacked deck's card
    ids (a rematch deals from it again)."""

    __tablename__ = "games"
    # The home page's query (unfinished games, most recently played first, 50 at most) walks this index
    # and stops after 50 rows, however many games are stored, finished or not.
    __table_args__ = (sa.Index("ix_games_status_updated_at", "status", "updated_at"),
                      # the finished games' list, most recent first
                      sa.Index("ix_games_status_finished_at", "status", "finished_at"))

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(sa.String(16), unique=True)
    kind: Mapped[str] = mapped_column(sa.String(16))  # the game's key in the registry
    options: Mapped[str] = mapped_column(sa.Text, default="{}", server_default="{}")
    state: Mapped[str] = mapped_column(sa.Text)
    initial_state: Mapped[str | None] = mapped_column(sa.Text, default=None)
    # Where the game stands, in a few words ("Round 2 of 3, Ann's turn"): lists of many games
    # (the home page) show it without rebuilding each game's state.
    headline: Mapped[str | None] = mapped_column(sa.String(120), default=None)
    deck_cards: Mapped[str | None] = mapped_column(sa.Text, default=None)
    version: Mapped[int] = mapped_column(default=1)
    # How many actions the log holds (at most store.MAX_ACTIONS): a replay's last step.
    steps: Mapped[int] = mapped_column(default=0, server_default="0")
    status: Mapped[str] = mapped_column(sa.String(16), default=PLAYING)
    deck_name: Mapped[str | None] = mapped_column(sa.String(80), default=None)
    host_token_hash: Mapped[str] = mapped_column(sa.String(64))
    # Hot-seat: the seat whose hand the host's device last revealed after a hand-over screen.
    shown_seat: Mapped[int | None] = mapped_column(default=None)
    rematch_slug: Mapped[str | None] = mapped_column(sa.String(16), default=None)
    # The results once finished (JSON: [{seat, name, won, score}]), for lists of finished games.
    results: Mapped[str | None] = mapped_column(sa.Text, default=None)
    # Whether the results are in the score table or statistics yet: they are recorded after the
    # commit that ends the game, and a server stopped in between records them when it starts.
    results_recorded: Mapped[bool] = mapped_column(default=True, server_default=sa.true())
    # Read from an exported file: replayable, but it changed no score.
    imported: Mapped[bool] = mapped_column(default=False, server_default=sa.false())
    # An imported game's file as a digest (replays.import_digest), so the same game is not
    # imported twice.
    import_digest: Mapped[str | None] = mapped_column(sa.String(64), default=None, index=True, unique=True)
    # The set-up form's token (app/web/setup.py), so that a form posted twice at once, a
    # double-click, makes one game: the second post finds the first's.
    setup_token: Mapped[str | None] = mapped_column(sa.String(40), default=None, index=True, unique=True)
    # Where the computer stood in for a person (JSON: {seat: [[first log line, end or null]]}),
    # so the log can say "AI for Finn".
    standins: Mapped[str | None] = mapped_column(sa.Text, default=None)
    # The game's log lines that no action row holds (JSON: a list of events, line 0 first): the
    # deal's; for a game stored before each action kept its own lines, every line until then.
    # Read only by the whole game's log, so not loaded with the row.
    opening_log: Mapped[str | None] = mapped_column(sa.Text, default=None, deferred=True)
    # A game stored before replays were kept gets its state as dealt at the upgrade
    # (app/serving/upgrades.py); where that failed, why (its replay and export say so), and which lines
    # its whole game's log holds when they are not every round's.
    replay_problem: Mapped[str | None] = mapped_column(sa.Text, default=None)
    log_note: Mapped[str | None] = mapped_column(sa.Text, default=None)
    # A guided first game ("Learn by playing", its definition's guide): the step of the guide's
    # script it is at. None: a game like any other. A guided game changes no score or statistic
    # and is listed with no other games.
    guide_step: Mapped[int | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(default=None)

    seats: Mapped[list["SeatRecord"]] = relationship(
        back_populates="game", order_by="SeatRecord.number", cascade="all, delete-orphan")


class SeatRecord(Model):
    """A seat at a game: who sits there, and how a browser proves it holds the seat."""

    __tablename__ = "seats"
    __table_args__ = (sa.UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"))  # unique (game, ...) indexes it
    number: Mapped[int] = mapped_column()  # 0-based; seat 1 is number 0
    name: Mapped[str] = mapped_column(sa.String(24))
    is_ai: Mapped[bool] = mapped_column(default=False)
    device: Mapped[str] = mapped_column(sa.String(8), default=HERE)
    token_hash: Mapped[str | None] = mapped_column(sa.String(64), default=None)
    # The token hash before the host released the seat: the release can be undone while nobody
    # has taken the seat with its new code.
    previous_token_hash: Mapped[str | None] = mapped_column(sa.String(64), default=None)
    join_code: Mapped[str | None] = mapped_column(sa.String(12), default=None, unique=True)
    # A join code stops working after this (and when the game ends, which removes it).
    code_expires_at: Mapped[datetime | None] = mapped_column(default=None)
    ai_standin: Mapped[bool] = mapped_column(default=False)
    # A computer seat's strength (easy, normal, strong: ``GameDefinition.strengths``), chosen at
    # set-up and kept by a rematch; None for a person, and for the normal player of a game set up
    # before strengths were chosen.
    strength: Mapped[str | None] = mapped_column(sa.String(8), default=None)

    game: Mapped[GameRecord] = relationship(back_populates="seats")

    @property
    def code_is_live(self) -> bool:
        """Whether the seat's join code still works (it has one, and it has not expired)."""
        return self.join_code is not None and (self.code_expires_at is None or self.code_expires_at > utcnow())


class Holding(Model):
    """A seat (or the host role, ``role`` "host") that a browser holds: the browser is known by
    the hash of the one random key its session cookie carries, and holds the seat while
    ``token_hash`` is the seat's own (a seat the host released is no longer held). However many
    tables a browser sits at, its cookie stays that one key."""

    __tablename__ = "holdings"
    __table_args__ = (sa.UniqueConstraint("browser", "game_id", "role"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    browser: Mapped[str] = mapped_column(sa.String(64))  # the unique index starts with it
    game_id: Mapped[int] = mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"), index=True)
    role: Mapped[str] = mapped_column(sa.String(8))  # a seat's number, or "host"
    token_hash: Mapped[str] = mapped_column(sa.String(64))


class ActionRecord(Model):
    """The action log: one row per applied action; (game, version) is unique, so the same
    action can never be stored twice. ``events`` are the game's log lines the action made (JSON:
    its ``Outcome.events``), the first of them line number ``line`` of the game's log; both are
    null in rows stored before actions kept their lines (``GameRecord.opening_log`` holds them)."""

    __tablename__ = "actions"
    __table_args__ = (sa.UniqueConstraint("game_id", "version"),
                      # the whole game's log reads its lines a page at a time, by line number
                      sa.Index("ix_actions_game_id_line", "game_id", "line"))

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"))  # unique (game, ...) indexes it
    version: Mapped[int] = mapped_column()  # the game version this action produced
    seat: Mapped[int | None] = mapped_column(default=None)
    action: Mapped[str] = mapped_column(sa.Text)
    events: Mapped[str | None] = mapped_column(sa.Text, default=None)
    line: Mapped[int | None] = mapped_column(default=None)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Snapshot(Model):
    """A game's state as it was after its first ``step`` actions (the action that made game
    version ``version`` being the last of them), so that a replay starts from the snapshot
    nearest the steps it shows, not from the deal (store.py decides when one is kept)."""

    __tablename__ = "snapshots"
    __table_args__ = (sa.UniqueConstraint("game_id", "step"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(sa.ForeignKey("games.id", ondelete="CASCADE"))  # unique (game, ...) indexes it
    step: Mapped[int] = mapped_column()
    version: Mapped[int] = mapped_column()
    state: Mapped[str] = mapped_column(sa.Text)


class PendingImport(Model):
    """An uploaded scores.csv waiting for the admin to confirm its preview."""

    __tablename__ = "score_imports"

    id: Mapped[int] = mapped_column(primary_key=True)
    token: Mapped[str] = mapped_column(sa.String(40), unique=True)
    csv_text: Mapped[str] = mapped_column(sa.Text)
    table_digest: Mapped[str] = mapped_column(sa.String(64))  # score_table.mark() of the table previewed
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class AdminFailure(Model):
    """A wrong admin password, kept to rate-limit guessing across worker processes."""

    __tablename__ = "admin_failures"

    id: Mapped[int] = mapped_column(primary_key=True)
    address: Mapped[str] = mapped_column(sa.String(64), index=True)
    at: Mapped[datetime] = mapped_column(default=utcnow, index=True)


class RateEvent(Model):
    """One counted event of a client address (a wrong join code, a game set up), kept in the
    database so that every worker process counts the same events (app/store/limits.py)."""

    __tablename__ = "rate_events"
    __table_args__ = (sa.Index("ix_rate_events_kind_address_at", "kind", "address", "at"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    kind: Mapped[str] = mapped_column(sa.String(16))
    address: Mapped[str] = mapped_column(sa.String(64))
    at: Mapped[datetime] = mapped_column(default=utcnow)


class AdminSession(Model):
    """A logged-in admin browser. The session cookie holds only a random id whose hash is this
    row's ``token_hash``: logout deletes the row, a new admin password (``credential`` no longer
    matches) voids it, and it expires at ``expires_at``, so a copied cookie stops working."""

    __tablename__ = "admin_sessions"

    id: Mapped[int] = mapped_column(primary_key=True)
    token_hash: Mapped[str] = mapped_column(sa.String(64), unique=True)
    credential: Mapped[str] = mapped_column(sa.String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(index=True)


class UploadedDeck(Model):
    """A stacked deck as the admin uploaded it (its bytes), kept here so that every server sharing
    the database offers it (app/tables/decks.py). ``content`` None: the admin deleted the deck of
    that name, so no server offers it, not even from a file of that name in its decks folder."""

    __tablename__ = "uploaded_decks"
    __table_args__ = (sa.UniqueConstraint("game", "name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(sa.String(16))
    name: Mapped[str] = mapped_column(sa.String(80))
    content: Mapped[bytes | None] = mapped_column(sa.LargeBinary, default=None)
    changed_at: Mapped[datetime] = mapped_column(default=utcnow)


class HouseSecret(Model):
    """What every server sharing the database must agree on (app/store/credentials.py): the session key,
    or a fingerprint of the one the servers' environment sets."""

    __tablename__ = "house_secrets"

    name: Mapped[str] = mapped_column(sa.String(40), primary_key=True)
    value: Mapped[str] = mapped_column(sa.String(200))
