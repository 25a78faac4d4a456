import contextlib
import fcntl
import logging
import os
from logging.config import fileConfig

from flask import current_app

from alembic import context

# this is the Alembic Config object, which provides
# access to the values within the .ini file in use.
config = context.config

# Interpret the config file for Python logging.
# This line sets up loggers basically.
fileConfig(config.config_file_name)
logger = logging.getLogger('alembic.env')
# `flask upgrade` (what `make run` starts with) says in one line that the database is ready:
# "-x quiet" leaves out Alembic's line for each migration (app/serving/cli.py).
if 'quiet' in context.get_x_argument():
    logging.getLogger('alembic').setLevel(logging.WARNING)


def get_engine():
    return current_app.extensions['migrate'].db.engine


def get_engine_url():
    try:
        return get_engine().url.render_as_string(hide_password=False).replace(
            '%', '%%')
    except AttributeError:
        return str(get_engine().url).replace('%', '%%')


# add your model's MetaData object here
# for 'autogenerate' support
# from myapp import mymodel
# target_metadata = mymodel.Base.metadata
config.set_main_option('sqlalchemy.url', get_engine_url())
target_db = current_app.extensions['migrate'].db

# other values from the config, defined by the needs of env.py,
# can be acquired:
# my_important_option = config.get_main_option("my_important_option")
# ... etc.


def get_metadata():
    if hasattr(target_db, 'metadatas'):
        return target_db.metadatas[None]
    return target_db.metadata


def run_migrations_offline():
    """Run migrations in 'offline' mode.

    This configures the context with just a URL
    and not an Engine, though an Engine is acceptable
    here as well.  By skipping the Engine creation
    we don't even need a DBAPI to be available.

    Calls to context.execute() here emit the given string to the
    script output.

    """
    url = config.get_main_option("sqlalchemy.url")
    context.configure(
        url=url, target_metadata=get_metadata(), literal_binds=True
    )

    with context.begin_transaction():
        context.run_migrations()


# Any number that no other program sharing the database takes as its advisory lock.
UPGRADE_LOCK = 0x63617264  # "card"


@contextlib.contextmanager
def one_upgrade_at_a_time(connection):
    """Servers started together (`make run` on several machines) upgrade one after the other:
    the next one finds the database at the head already, and does nothing. PostgreSQL: a
    session advisory lock on the migrating connection (it ends with the connection, even if the
    process is killed). SQLite: a lock on a file beside the database (one machine)."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_lock({UPGRADE_LOCK})")
        connection.commit()  # (the lock is the session's: it outlives this transaction)
        try:
            yield
        finally:
            connection.rollback()
            connection.exec_driver_sql(f"SELECT pg_advisory_unlock({UPGRADE_LOCK})")
            connection.commit()
        return
    database = connection.engine.url.database
    if connection.dialect.name != "sqlite" or not database or database == ":memory:" or database.startswith("file:"):
        yield
        return
    with open(os.path.abspath(database) + ".upgrade-lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def run_migrations_online():
    """Run migrations in 'online' mode.

    In this scenario we need to create an Engine
    and associate a connection with the context.

    """

    # this callback is used to prevent an auto-migration from being generated
    # when there are no changes to the schema
    # reference: http://alembic.zzzcomputing.com/en/latest/cookbook.html
    def process_revision_directives(context, revision, directives):
        if getattr(config.cmd_opts, 'autogenerate', False):
            script = directives[0]
            if script.upgrade_ops.is_empty():
                directives[:] = []
                logger.info('No changes in schema detected.')

    conf_args = current_app.extensions['migrate'].configure_args
    if conf_args.get("process_revision_directives") is None:
        conf_args["process_revision_directives"] = process_revision_directives

    connectable = get_engine()

    with connectable.connect() as connection, one_upgrade_at_a_time(connection):
        context.configure(
            connection=connection,
            target_metadata=get_metadata(),
            **conf_args
        )

        # SQLite alters a table in batch mode by copying it and dropping the old one; with foreign
        # keys on, dropping a table deletes every row that refers to it (seats, the action log)
        # through ON DELETE CASCADE. So they are off while migrating (the pragma only works
        # outside a transaction), and checked afterwards.
        sqlite = connection.dialect.name == "sqlite"
        raw = connection.connection.driver_connection if sqlite else None
        if sqlite:  # on the driver's connection: SQLAlchemy's would begin a transaction first
            raw.execute("PRAGMA foreign_keys = OFF")
        try:
            with context.begin_transaction():
                context.run_migrations()
            if sqlite:
                broken = raw.execute("PRAGMA foreign_key_check").fetchall()
                if broken:
                    raise RuntimeError(f"the migration left rows that refer to nothing: {broken[:5]}")
        finally:
            if sqlite:
                raw.execute("PRAGMA foreign_keys = ON")


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
