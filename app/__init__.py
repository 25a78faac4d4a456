"""The card table. ``create_app`` builds the web app; the games (app.core, app.games) and the
terminal programs import nothing from the web side, and importing this package stays light for
them: Flask and the database are only imported when an app is created."""

from __future__ import annotations

import os

from .settings import PROJECT_ROOT, SettingError



def create_app(config_class: type | None = None, *, instance_path: str | None = None, **overrides):
    from config import Config, setting

    from .extensions import csrf, db, init_migrations
    from .store.credentials import ensure_admin_password, shared_secret_key
    from .web import TableApp

    instance_path = instance_path or setting("INSTANCE") or os.path.join(PROJECT_ROOT, "instance")
    app = TableApp(__name__, template_folder="../templates", static_folder="../static",
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
        from werkzeug.middleware.proxy_fix import ProxyFix

        # The device's address and the host it asked for, as the proxies say (only that many of
        # them: an X-Forwarded-For a device sends itself is further left, and ignored).
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=proxies, x_proto=proxies, x_host=proxies,  # type: ignore[method-assign]
                                x_port=proxies)

    db.init_app(app)
    if app.config["DATABASE_COMMANDS"]:
        init_migrations(app, os.path.join(PROJECT_ROOT, "migrations"))
    csrf.init_app(app)

    from .store.database import configure_engine

    with app.app_context():
        configure_engine(db.engine)
        # The session key every server sharing the database uses (app/store/credentials.py). A served
        # worker checks a configured SECRET_KEY against the others' (app/serving/serve.py did first).
        serving = setting("SERVING") == "1"
        if not app.config.get("SECRET_KEY") or serving:
            app.config["SECRET_KEY"] = shared_secret_key(db.engine, app.config.get("SECRET_KEY"), app.instance_path)

    if not app.config.get("ADMIN_PASSWORD"):
        ensure_admin_password(app.instance_path)

    from . import web
    from .serving.cli import register_commands

    web.register(app)
    register_commands(app)
    if setting("SERVING") == "1":  # a server starts: bring instance/scores.csv up to date
        from .records import scores_file

        scores_file.mark_stale(app)
    return app


def trusted_proxies(value) -> int:
    """TRUSTED_PROXIES as a number of proxies (0 to 10); a clear error for anything else."""
    text = str(value if value is not None else "0").strip() or "0"
    if not text.isdigit() or int(text) > 10:
        raise SettingError(f"TRUSTED_PROXIES must be the number of proxies in front of the server "
                         f"(0 for none, usually 1), not {text!r}")
    return int(text)
