"""Flask extensions, created once and bound to the app in create_app (no circular imports)."""

from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
csrf = CSRFProtect()


def init_migrations(app, directory: str) -> None:
    """The `flask db` commands. Flask-Migrate (and Alembic) are imported only here: see
    Config.DATABASE_COMMANDS."""
    from flask_migrate import Migrate

    Migrate(app, db, directory=directory, render_as_batch=True)  # batch_alter_table: SQLite can alter tables
