"""The session key and the admin password. There is never a fixed default.

The session key (which signs session cookies, and with them seat tokens) lives in the database,
so that every server sharing it signs and reads the same cookies (``shared_secret_key``):
- without ``SECRET_KEY`` in the environment a server uses the key kept in ``house_secrets``,
  which the first server to start creates (an existing install's ``instance/secret_key`` becomes
  that key, so its sessions and seat cookies stay valid);
- with ``SECRET_KEY`` set, only a fingerprint of it is kept there, and a server whose
  ``SECRET_KEY`` is another one refuses to start, as does a server without one when the others
  set theirs: a server with another key would show players pages without their seats.
``flask --app wsgi secret-key forget`` clears both (every session ends) to change the key.

The admin password's hash is kept in the instance folder, created at first start atomically
(O_EXCL), so several worker processes starting at once agree on one value; it is printed once,
when it is generated. Several servers share one admin password through ``ADMIN_PASSWORD``.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import shlex
import sys
import time
from typing import Any, Mapping

import sqlalchemy as sa
from werkzeug.security import check_password_hash, generate_password_hash

from ..settings import PROJECT_ROOT
from .models import HouseSecret

SECRET_KEY_FILE = "secret_key"
ADMIN_HASH_FILE = "admin_password.hash"


def _create_once(path: str, content: str) -> bool:
    """Write ``content`` to ``path`` unless it exists; True if this call created it."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(content)
        handle.flush()
        os.fsync(handle.fileno())
    return True


def _read_when_written(path: str) -> str:
    # Another process may have created the file a moment ago and still be writing it.
    for _ in range(50):
        with open(path, encoding="utf-8") as handle:
            text = handle.read().strip()
        if text:
            return text
        time.sleep(0.02)
    raise RuntimeError(f"{path} is empty: delete it and start again")


# -- the session key, shared through the database ----------------------------------------------------

SESSION_KEY = "session_key"
SESSION_KEY_FINGERPRINT = "session_key_fingerprint"


class SecretKeyRefused(RuntimeError):
    """This server's session key would not be the one of the other servers sharing the database."""


def fingerprint(key: str) -> str:
    # Anybody holding a signed cookie can already test guesses of the key: this tells no more.
    return hashlib.sha256(b"card-table session key\0" + key.encode("utf-8", "surrogatepass")).hexdigest()


def shared_secret_key(engine: sa.Engine, configured: str | None, instance_path: str, *, record: bool = True) -> str | None:
    """The session key every server sharing ``engine``'s database uses (see the module's
    docstring); ``configured``: this server's ``SECRET_KEY`` (None: not set). ``record``: write
    the key or the fingerprint if the database has none yet (a server starting), else only read.
    None when the database is not set up yet (before ``flask db upgrade``) and no key is configured.
    ``SecretKeyRefused`` with what to set when this server would use another key than the others."""
    table = HouseSecret.__table__
    names = (SESSION_KEY, SESSION_KEY_FINGERPRINT)
    if not sa.inspect(engine).has_table(table.name):
        return configured or None

    def read() -> dict[str, str]:
        with engine.connect() as connection:
            return dict(connection.execute(sa.select(table.c.name, table.c.value).where(table.c.name.in_(names))).all())

    def add(name: str, value: str) -> None:
        statement: sa.Insert
        if engine.dialect.name == "postgresql":
            from sqlalchemy.dialects import postgresql
            statement = postgresql.insert(table).values(name=name, value=value).on_conflict_do_nothing()
        else:
            from sqlalchemy.dialects import sqlite
            statement = sqlite.insert(table).values(name=name, value=value).on_conflict_do_nothing()
        with engine.begin() as connection:  # the first server to start wins; the others read its value
            connection.execute(statement)

    stored = read()
    if configured:
        if SESSION_KEY in stored and stored[SESSION_KEY] != configured:
            raise SecretKeyRefused(
                "The servers sharing this database use the session key kept in it, and this server's "
                "SECRET_KEY is another one. Unset SECRET_KEY here (or set the same SECRET_KEY on every server "
                "after `.venv/bin/flask --app wsgi secret-key forget`, which ends every session).")
        if SESSION_KEY not in stored and SESSION_KEY_FINGERPRINT not in stored and record:
            add(SESSION_KEY_FINGERPRINT, fingerprint(configured))
            stored = read()
        if SESSION_KEY_FINGERPRINT in stored and stored[SESSION_KEY_FINGERPRINT] != fingerprint(configured):
            raise SecretKeyRefused(
                "This server's SECRET_KEY is not the one the other servers sharing this database use: set the "
                "same SECRET_KEY on every server (to change it everywhere, run "
                "`.venv/bin/flask --app wsgi secret-key forget` first: every session ends).")
        return configured
    if SESSION_KEY not in stored and SESSION_KEY_FINGERPRINT in stored:
        raise SecretKeyRefused(
            "The other servers sharing this database set SECRET_KEY in their environment: set the same "
            "SECRET_KEY for this server too.")
    if SESSION_KEY not in stored and record:
        add(SESSION_KEY, _instance_key(instance_path) or secrets.token_hex(32))
        stored = read()
        if SESSION_KEY not in stored:  # another server recorded a fingerprint meanwhile
            return shared_secret_key(engine, configured, instance_path, record=False)
    if SESSION_KEY in stored and record:
        _retire_instance_key(instance_path)
    return stored.get(SESSION_KEY)


def _instance_key(instance_path: str) -> str | None:
    """The key an install kept in its instance folder before keys moved to the database."""
    try:
        return _read_when_written(os.path.join(instance_path, SECRET_KEY_FILE)) or None
    except (OSError, RuntimeError):
        return None


def _retire_instance_key(instance_path: str) -> None:
    """The database holds the key now: the old file is renamed, so that a key forgotten on
    purpose (``secret-key forget``) is not brought back from it."""
    path = os.path.join(instance_path, SECRET_KEY_FILE)
    try:
        os.replace(path, path + ".moved-to-database")
    except OSError:
        pass


def forget_secret_key(engine: sa.Engine) -> None:
    """Forget the shared session key and fingerprint: the next server to start sets the new one."""
    table = HouseSecret.__table__
    with engine.begin() as connection:
        connection.execute(sa.delete(table).where(table.c.name.in_((SESSION_KEY, SESSION_KEY_FINGERPRINT))))


# Where create_app keeps a new admin password for `make run`'s first start summary to show
# (``app.extensions``).
NEW_ADMIN_PASSWORD = "card_table.new_admin_password"


def ensure_admin_password(instance_path: str, announce: bool = True) -> str | None:
    """Generate an admin password at first start: printed once here (``announce``), else given
    back for the caller to print among its own lines (`make run`'s first start: ``flask
    upgrade``'s summary). None: there was one already."""
    path = os.path.join(instance_path, ADMIN_HASH_FILE)
    if os.path.exists(path):
        return None
    password = secrets.token_urlsafe(12)
    if not _create_once(path, generate_password_hash(password) + "\n"):
        return None
    if announce:
        print("\n" + "\n".join(new_password_lines(password)) + "\n", file=sys.stderr, flush=True)
    return password


def new_password_lines(password: str) -> list[str]:
    """How a new admin password is shown, once: the password, and the command that changes it
    (on a line of its own, to copy)."""
    return ["  The card table's admin password (shown once; only its hash is kept):",
            f"      {password}",
            f"  To change it, run in {PROJECT_ROOT}:",
            f"      {set_password_command()}"]


def set_password_command() -> str:
    """The command that changes the admin password, as it works from the project folder: the
    ``flask`` of the Python running now (the project's .venv), which a plain ``flask`` on the
    PATH is not."""
    folder = os.path.dirname(sys.executable)
    flask = os.path.join(folder, "flask")
    if not os.path.exists(flask):
        return f"{shlex.quote(sys.executable)} -m flask --app wsgi admin set-password"
    relative = os.path.relpath(flask, PROJECT_ROOT)
    shown = relative if not relative.startswith("..") else flask
    return f"{shlex.quote(shown)} --app wsgi admin set-password"


def set_admin_password(instance_path: str, password: str) -> None:
    path = os.path.join(instance_path, ADMIN_HASH_FILE)
    temporary = path + ".tmp"
    with open(temporary, "w", encoding="utf-8") as handle:
        handle.write(generate_password_hash(password) + "\n")
    os.chmod(temporary, 0o600)
    os.replace(temporary, path)


def check_admin_password(config: Mapping[str, Any], instance_path: str, password: str) -> bool:
    """True if ``password`` is the admin password (from the environment, else the stored hash)."""
    if not password:
        return False
    configured = config.get("ADMIN_PASSWORD")
    if configured:
        return secrets.compare_digest(configured.encode(), password.encode())
    try:
        stored = _read_when_written(os.path.join(instance_path, ADMIN_HASH_FILE))
    except (OSError, RuntimeError):
        return False
    return check_password_hash(stored, password)


def admin_credential(config: Mapping[str, Any], instance_path: str) -> str:
    """A fingerprint of the admin password as it is now (the configured one, else the stored
    hash): an admin session opened with another password is over."""
    configured = config.get("ADMIN_PASSWORD")
    if configured:
        source = "environment:" + configured
    else:
        try:
            source = "hash:" + _read_when_written(os.path.join(instance_path, ADMIN_HASH_FILE))
        except (OSError, RuntimeError):
            source = "none"
    return hashlib.sha256(source.encode("utf-8", "surrogatepass")).hexdigest()
