"""The card table. ``create_app`` builds the web app; the games (app.core, app.games) and the
terminal programs import nothing from the web side, and importing this package stays light for
them: Flask and the database are only imported when an app is created."""

from __future__ import annotations

import os


PROJECT_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def create_app(config_class: type | None = None, *, instance_path: str | None = None, **overrides):
    from flask import Flask

    from config import Config, setting

    from .extensions import csrf, db, init_migrations
    from .secrets import ensure_admin_password, ensure_secret_key

    instance_path = instance_path or setting("INSTANCE") or os.path.join(PROJECT_ROOT, "instance")
    app = Flask(__name__, template_folder="../templates", static_folder="../static",
                instance_path=os.path.abspath(instance_path))
    app.config.from_object(config_class or Config)
    app.config.update(overrides)
    os.makedirs(app.instance_path, exist_ok=True)

    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = ensure_secret_key(app.instance_path)
    if not app.config.get("SQLALCHEMY_DATABASE_URI"):
        # (the file's name is the one installs have had since the table was Mason Rummy's alone)
        app.config["SQLALCHEMY_DATABASE_URI"] = "sqlite:///" + os.path.join(app.instance_path, "mason.db")
    app.config.setdefault("SCORES_CSV_PATH", os.path.join(app.instance_path, "scores.csv"))
    app.config["SEND_FILE_MAX_AGE_DEFAULT"] = 365 * 24 * 3600  # static URLs carry a version

    db.init_app(app)
    if app.config["DATABASE_COMMANDS"]:
        init_migrations(app, os.path.join(PROJECT_ROOT, "migrations"))
    csrf.init_app(app)

    from .database import configure_engine

    with app.app_context():
        configure_engine(db.engine)

    if not app.config.get("ADMIN_PASSWORD"):
        ensure_admin_password(app.instance_path)

    from . import web
    from .cli import register_commands

    web.register(app)
    register_commands(app)
    if setting("SERVING") == "1":  # a server starts: bring instance/scores.csv up to date
        from . import scores_file

        scores_file.mark_stale(app)
    return app
