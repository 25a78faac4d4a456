"""Configuration. Secrets come from the environment or the instance folder, never from code."""

from __future__ import annotations

import os
from typing import overload

from app.settings import number

BASE_DIR = os.path.abspath(os.path.dirname(__file__))

# The table's own environment variables are CARD_TABLE_<NAME>; the MASON_<NAME> that installs
# set up before the table hosted several games still works.
ENV_PREFIXES = ("CARD_TABLE_", "MASON_")


@overload
def setting(name: str) -> str | None: ...


@overload
def setting(name: str, default: str) -> str: ...


@overload
def setting(name: str, default: str | None) -> str | None: ...


def setting(name: str, default: str | None = None) -> str | None:
    """The environment variable ``CARD_TABLE_<name>`` (or ``MASON_<name>``), else ``default``."""
    for prefix in ENV_PREFIXES:
        value = os.environ.get(prefix + name)
        if value is not None:
            return value
    return default


class Config:
    # SECRET_KEY: from the environment, else generated once into the instance folder (app/store/credentials.py).
    SECRET_KEY = os.environ.get("SECRET_KEY")
    # SQLite in the instance folder by default; any SQLAlchemy URL (PostgreSQL) via DATABASE_URL.
    SQLALCHEMY_DATABASE_URI = os.environ.get("DATABASE_URL")
    SQLALCHEMY_TRACK_MODIFICATIONS = False
    DECKS_FOLDER = os.environ.get("DECKS_FOLDER", os.path.join(BASE_DIR, "decks"))
    ADMIN_PASSWORD = os.environ.get("ADMIN_PASSWORD")
    # Uploads (.deck, scores.csv) are small text files. A request over this limit gets 413; a file
    # under it but over its own limit (app/web/admin.py: 64 KB a deck, 1 MB a scores.csv) gets a
    # 400 that says so, so a 1 MB deck is a clear refusal, not a bare 413.
    MAX_CONTENT_LENGTH = 2 * 1024 * 1024
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    PERMANENT_SESSION_LIFETIME = 60 * 60 * 24 * 30
    # The cookie (a player's seats) is sent again, with a new expiry, on each visit of a page
    # (app/web/__init__.py, keep_seats_on_visits), not with every action and live refresh.
    SESSION_REFRESH_EACH_REQUEST = False
    WTF_CSRF_TIME_LIMIT = None  # a table can stay open all evening
    # instance/scores.csv follows the score table in the background, at most once per this many
    # seconds (app/records/scores_file.py): a game's end does not wait for it.
    SCORES_FILE_SECONDS = number("SCORES_FILE_SECONDS", "2", float)
    # Live updates on SQLite: a commit rings every worker process's doorbell (app/web/events.py),
    # and each process with streams open also looks this often whether anything was committed,
    # and then reads their games' versions, in case a ring was lost. (PostgreSQL: LISTEN/NOTIFY,
    # nothing polls.)
    EVENTS_POLL_SECONDS = number("EVENTS_POLL_SECONDS", "0.05", float)
    EVENTS_DOORBELL = os.environ.get("EVENTS_DOORBELL", "1") != "0"
    # How often a worker's LISTEN connection looks up from its wait to see whether the process
    # still has streams open (it closes once none is): no query, no transaction.
    EVENTS_LISTENER_TICK_SECONDS = number("EVENTS_LISTENER_TICK_SECONDS", "5", float)
    EVENTS_KEEPALIVE_SECONDS = 15.0
    # Streams are recycled hourly (the browser reconnects at once); rarely, so reconnects stay rare.
    EVENTS_MAX_SECONDS = number("EVENTS_MAX_SECONDS", "3600", float)
    # A player idle this long may be replaced by an AI for their turns by the host.
    IDLE_SECONDS = number("IDLE_SECONDS", "120")
    ADMIN_MAX_FAILURES = 5
    ADMIN_FAILURE_WINDOW_SECONDS = 15 * 60
    # An admin login lasts this long (a server-side session: logout and a new password end it).
    ADMIN_SESSION_HOURS = 12
    # A join code (own-device seat) stops working after this many hours, and when its game ends.
    JOIN_CODE_HOURS = number("JOIN_CODE_HOURS", "24", float)
    # Wrong join codes a client address may try before it must wait: with 20 tries per 10
    # minutes, finding one of a few open codes among 32^6 takes centuries.
    JOIN_MAX_FAILURES = 20
    JOIN_FAILURE_WINDOW_SECONDS = 10 * 60
    # Games a client address may set up (or rematch) per hour (each can add names to the score table).
    GAMES_PER_HOUR = number("GAMES_PER_HOUR", "30")
    # A seat's private moves (arranging its cards) per client address and minute, in each worker.
    OWN_MOVES_PER_MINUTE = number("OWN_MOVES_PER_MINUTE", "120")
    # The job runner (app/solving): processes per server beside the gunicorn workers (0: none, and
    # nothing is worked out off the request path: tables show "checking..."); the solver's positions
    # a question is worked on at a time, and in all before it is "too hard" (a position costs about
    # 5-20 us); new questions one client address may ask a minute (its moves, its pages); questions
    # waiting at most; how long a set-up waits for the verdicts of deal only winnable games; how
    # often the runner looks for work besides being rung, and when another runner's claim is stale.
    SOLVER_PROCESSES = number("SOLVER_PROCESSES", "1")
    SOLVER_SLICE = number("SOLVER_SLICE", "50000")
    SOLVER_BUDGET = number("SOLVER_BUDGET", "2000000")
    SOLVES_PER_MINUTE = number("SOLVES_PER_MINUTE", "120")
    SOLVER_WAITING_MAX = number("SOLVER_WAITING_MAX", "2000")
    SOLVER_SETUP_WAIT_SECONDS = number("SOLVER_SETUP_WAIT_SECONDS", "3", float)
    SOLVER_POLL_SECONDS = number("SOLVER_POLL_SECONDS", "10", float)
    SOLVER_STALE_SECONDS = number("SOLVER_STALE_SECONDS", "120", float)
    # How much lower than the web workers' the runner's CPU priority is (os.nice: 0 to 19).
    SOLVER_NICE = number("SOLVER_NICE", "10", high=19)
    # Live event streams, counted in each worker process (a gevent worker holds at most 1000
    # connections, app/serving/serve.py): per client address, per game, and in all, so that streams never
    # take the connections page requests need. A stream whose game has not changed for
    # EVENTS_IDLE_SECONDS may be dropped to make room; a refused page falls back to polling.
    EVENTS_PER_ADDRESS = number("EVENTS_PER_ADDRESS", "16")
    EVENTS_PER_GAME = number("EVENTS_PER_GAME", "32")
    EVENTS_PER_WORKER = number("EVENTS_PER_WORKER", "500")
    EVENTS_IDLE_SECONDS = number("EVENTS_IDLE_SECONDS", "600", float)
    # Host names the server answers besides IP addresses, localhost and this machine's own names
    # (comma separated): a web page elsewhere cannot reach the table by DNS rebinding.
    ALLOWED_HOSTS = [name.strip().lower() for name in os.environ.get("ALLOWED_HOSTS", "").split(",") if name.strip()]
    # How many reverse proxies (a load balancer...) stand between the devices and this server. 0:
    # none, and forwarded headers are ignored (anybody could send them). N: the address and host
    # the N-th proxy from here was asked for (X-Forwarded-For, -Host, -Proto, -Port) are the
    # device's, for the per-device limits and the host check (app/__init__.py, Werkzeug's ProxyFix).
    TRUSTED_PROXIES = os.environ.get("TRUSTED_PROXIES", "0")
    # The `flask db` commands (Flask-Migrate). The served app (app/serving/serve.py sets CARD_TABLE_SERVING=1)
    # leaves them out: gunicorn never runs them, and Alembic with Mako and Pygments would take
    # about 10 MB in every worker process.
    DATABASE_COMMANDS = setting("SERVING") != "1"
    # The languages the table speaks (app/web/languages.py), each named in its own words for the
    # language menu, and where their catalogues are: translations/<code>/LC_MESSAGES/, one file
    # per domain (``messages``: the house's pages; ``games``: the games' own words).
    LANGUAGES = {"en": "English", "es": "Español", "hi": "हिन्दी"}
    BABEL_DEFAULT_LOCALE = "en"
    BABEL_TRANSLATION_DIRECTORIES = os.path.join(BASE_DIR, "translations")


class TestConfig(Config):
    TESTING = True
    SECRET_KEY = "test-secret-key-not-for-production"
    ADMIN_PASSWORD = "test-admin-password"
    EVENTS_MAX_SECONDS = 2.0
    GAMES_PER_HOUR = 100_000  # the tests set up many games from one address (tests that limit it set it)
    SCORES_FILE_SECONDS = 0.0  # instance/scores.csv is written as soon as it can be (tests wait for it)
