"""Flask extensions, created once and bound to the app in create_app (no circular imports)."""

from typing import TYPE_CHECKING, ClassVar, cast

import flask_sqlalchemy.model
import sqlalchemy as sa
from flask import Flask, current_app
from flask_babel import Babel
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase
from werkzeug.local import LocalProxy


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
csrf = CSRFProtect()
babel = Babel()

if TYPE_CHECKING:
    # The rows' base class as a type checker can see it (it takes no base class from an
    # attribute such as ``db.Model``): Flask-SQLAlchemy makes ``db.Model`` of Base's bases and
    # its own Model. Every row class maps a table (``__table__``, not any FROM clause).
    class Model(Base, flask_sqlalchemy.model.Model):
        __abstract__ = True
        __table__: ClassVar[sa.Table]
else:
    Model = db.Model


def app_itself() -> Flask:
    """The app of the current context itself, not the ``current_app`` proxy: for work that goes
    on after the request (a thread, a greenlet). (Flask types ``current_app`` as the app it
    stands for, so the proxy's own method is reached through its real type.)"""
    return cast("LocalProxy[Flask]", current_app)._get_current_object()


def init_migrations(app: Flask, directory: str) -> None:
    """The `flask db` commands. Flask-Migrate (and Alembic) are imported only here: see
    Config.DATABASE_COMMANDS."""
    from flask_migrate import Migrate

    Migrate(app, db, directory=directory, render_as_batch=True)  # batch_alter_table: SQLite can alter tables
