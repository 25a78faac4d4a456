"""``create_app``: the web app, with every game registered, its extensions, its blueprints and
commands, and the listeners of what the house tells (``connect_the_news``): the one place that
knows who hears what."""

from __future__ import annotations

import os
from typing import Any

from werkzeug.middleware.proxy_fix import ProxyFix

from config import Config, setting

from . import games, live, records, tables  # noqa: F401  (games: registers every game)
from .extensions import babel, csrf, db, init_migrations
from .records import scores_file
from .serving import bench_routes
from .serving.cli import register_commands
from .serving.version import version_text
from .settings import PROJECT_ROOT, trusted_proxies
from .solving import kept
from .solving import signals as solving_signals
from .store import game_changed
from .store.credentials import NEW_ADMIN_PASSWORD, ensure_admin_password, shared_secret_key
from .store.database import configure_engine
from .tables import news
from .tables.play import play_off_request_turns
from .web import TableApp, languages, register as register_web


def create_app(config_class: type | None = None, *, instance_path: str | None = None, **overrides: Any) -> TableApp:
    instance_path = instance_path or setting("INSTANCE") or os.path.join(PROJECT_ROOT, "instance")
    app = TableApp("app", template_folder="../templates", static_folder="../static",
                   instance_path=os.path.abspath(instance_path))
    app.config.from_object(config_class or Config)
    app.config.update(overrides)
    os.makedirs(app.instance_path, exist_ok=True)

    if not app.config.get("SQLALCHEMY_DATABASE_URI"):
        # (the file's name is the one installs have had since the table was Mason Rummy's alone)
        app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite:///" + os.path.join(app.instance_path, "mason.db")
    app.config.setdefault("SCORES_CSV_PATH", os.path.join(app.instance_path, "scores.csv"))
    app.config["SEND_FILE_MAX_AGE_DEFAULT"] = 365 * 24 * 3600  # static URLs carry a version

    proxies = trusted_proxies(app.config.get("TRUSTED_PROXIES"))
    app.config["TRUSTED_PROXIES"] = proxies
    if proxies:
        # The device's address and the host it asked for, as the proxies say (only that many of
        # them: an X-Forwarded-For a device sends itself is further left, and ignored).
        # (Flask's own way to wrap its WSGI app in middleware, which the type checker takes for
        # replacing a method)
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies,  # type: ignore[method-assign]
                                x_port=proxies)

    db.init_app(app)
    if app.config["DATABASE_COMMANDS"]:
        init_migrations(app, os.path.join(PROJECT_ROOT, "migrations"))

    with app.app_context():
        configure_engine(db.engine)
        # The session key every server sharing the database uses (app/store/credentials.py). A
        # served worker checks a configured SECRET_KEY against the others' (app/serving/serve.py
        # did first).
        serving = setting("SERVING") == "1"
        if not app.config.get("SECRET_KEY") or serving:
            app.config["SECRET_KEY"] = shared_secret_key(db.engine, app.config.get("SECRET_KEY"), app.instance_path)

    if not app.config.get("ADMIN_PASSWORD"):
        # `make run`'s first start shows a new password in its summary (``flask upgrade``);
        # anything else that makes one prints it at once.
        summary = setting("FIRST_START_SUMMARY") == "1"
        password = ensure_admin_password(app.instance_path, announce=not summary)
        if password is not None and summary:
            app.extensions[NEW_ADMIN_PASSWORD] = password

    # Each browser's language (app/web/languages.py); the templates' gettext, ngettext and trans.
    babel.init_app(app, locale_selector=languages.chosen_language)
    register_web(app, version=version_text())
    # After the web's own checks (the host, then input no view may read: a field without a name,
    # a control character, a body that cannot be read), which run first: the CSRF check reads
    # the form too, and fails on what they refuse.
    csrf.init_app(app)
    if setting("BENCH_ROUTES") == "1":  # a small write for bench/scores.py
        app.register_blueprint(bench_routes.bp)
    register_commands(app)
    connect_the_news()
    if setting("SERVING") == "1":  # a server starts: bring instance/scores.csv up to date
        scores_file.mark_stale(app)
    return app




def connect_the_news() -> None:
    """Who hears what: a game's new version wakes the live streams (when its transaction commits);
    a position reached asks its solver's question, a game's end records its results, after the
    commit; the job runner's answers wake the tables waiting for them, a computer turn due
    off the request path is played by its table, and an exported game's file queued for import
    is checked and stored by the tables (their verdict is the runner's answer). (Signals are the
    process's: connecting the same listener again, for another app, changes nothing.)"""
    game_changed.connect(live.announce_version)
    news.position_reached.connect(kept.ask_now)
    news.game_finished.connect(records.record_finished)
    solving_signals.answered.connect(live.announce_answer)
    solving_signals.turn_due.connect(play_off_request_turns)
    solving_signals.import_due.connect(tables.check_import)
