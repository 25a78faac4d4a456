"""Flask extensions, created once and bound to the app in create_app (no circular imports)."""

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy.orm import DeclarativeBase


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
migrate = Migrate(render_as_batch=True)  # batch_alter_table so SQLite can alter tables
csrf = CSRFProtect()
