"""The admin's sessions: logging in with the admin password (wrong ones counted per device), a
server-side session per logged-in browser, named by its cookie ("<row id>.<token>", only the
token's hash stored), and logging out (the session ends on the server, so a copy of the cookie
taken before is worth nothing). A session opened with an older password ends when the password
changes (its ``credential`` no longer matches)."""

from __future__ import annotations

from flask_babel import gettext

import secrets
from datetime import timedelta

import sqlalchemy as sa
from flask import current_app

from .. import store
from ..core.refusal import Refusal
from ..extensions import db
from ..store.credentials import admin_credential, check_admin_password
from ..store.models import AdminFailure, AdminSession, utcnow
from . import news


class LoginRefused(Refusal):
    pass


def split_cookie(value: object) -> tuple[int | None, str]:
    row_id, _, token = value.partition(".") if isinstance(value, str) else ("", "", "")
    if not row_id.isdigit() or len(row_id) > 18 or not token:
        return None, ""
    return int(row_id), token


def live_session(cookie: object) -> AdminSession | None:
    """The live admin session the cookie names: found by its id, then the token checked against
    the stored hash in constant time."""
    row_id, token = split_cookie(cookie)
    if row_id is None:
        return None
    row = db.session.get(AdminSession, row_id)
    if row is None or not store.token_matches(token, row.token_hash) or row.expires_at <= utcnow():
        return None
    if not secrets.compare_digest(row.credential, admin_credential(current_app.config, current_app.instance_path)):
        return None
    return row


def is_admin(cookie: object) -> bool:
    return live_session(cookie) is not None


def recent_failures(address: str) -> int:
    since = utcnow() - timedelta(seconds=current_app.config["ADMIN_FAILURE_WINDOW_SECONDS"])
    return db.session.scalar(sa.select(sa.func.count()).select_from(AdminFailure)
                             .where(AdminFailure.address == address, AdminFailure.at >= since)) or 0


@news.command
def log_in(address: str, password: str) -> str:
    """Open an admin session and return its cookie, or refuse (``LoginRefused``) a wrong password
    or a device over its limit of wrong ones.

    Failures are counted and recorded in one write transaction that holds the lock (BEGIN
    IMMEDIATE on SQLite, a table lock on PostgreSQL): guesses sent at once, to one worker or
    several, cannot all pass the limit together, nor fail with "database is locked"."""
    store.begin_write()
    if db.engine.dialect.name == "postgresql":
        db.session.execute(sa.text(f"LOCK TABLE {AdminFailure.__tablename__} IN SHARE ROW EXCLUSIVE MODE"))
    if recent_failures(address) >= current_app.config["ADMIN_MAX_FAILURES"]:
        minutes = current_app.config["ADMIN_FAILURE_WINDOW_SECONDS"] // 60
        raise LoginRefused(gettext("Too many wrong passwords from this device. Try again in %(num)s minutes.", num=minutes), 429)
    if not check_admin_password(current_app.config, current_app.instance_path, password):
        db.session.add(AdminFailure(address=address))
        db.session.commit()
        raise LoginRefused(gettext("That is not the admin password."), 401)
    now = utcnow()
    db.session.execute(sa.delete(AdminSession).where(AdminSession.expires_at <= now))  # anybody's expired ones
    token = store.new_token()
    row = AdminSession(token_hash=store.hash_token(token), created_at=now,
                       credential=admin_credential(current_app.config, current_app.instance_path),
                       expires_at=now + timedelta(hours=current_app.config["ADMIN_SESSION_HOURS"]))
    db.session.add(row)
    db.session.flush()
    cookie = f"{row.id}.{token}"
    db.session.commit()
    return cookie


@news.command
def log_out(cookie: object) -> None:
    """The admin session the cookie names ends on the server."""
    row = live_session(cookie)
    if row is not None:
        row_id = row.id
        store.begin_write()
        db.session.execute(sa.delete(AdminSession).where(AdminSession.id == row_id))
        db.session.commit()
