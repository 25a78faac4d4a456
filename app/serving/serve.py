"""Serve the card table on the local network with gunicorn (`make run` calls this).

gevent workers hold many open connections at once (every table keeps an event stream open), at
most CONNECTIONS_PER_ADDRESS of one device each (app/serving/workers.py). PORT (default 5000) and
WORKERS (default 2) come from the environment.
"""

from __future__ import annotations

import os
import socket
import sys

import sqlalchemy as sa
from sqlalchemy.pool import NullPool

from ..settings import PROJECT_ROOT, SERVING_PYTHON, SettingError, cannot_start, number, trusted_proxies
from ..store.credentials import SecretKeyRefused, ensure_admin_password, shared_secret_key
from .workers import connections_per_address

try:
    from config import setting
except SettingError as problem:  # a number config.py reads as it loads: what to set, not a traceback
    sys.exit(cannot_start(problem))


def lan_address() -> str:
    """This machine's address on the LAN (no packet is sent: UDP connect only picks a route)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 1))
        address: str = probe.getsockname()[0]
        return address
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def port_in_use(port: int) -> bool:
    """Whether another program already listens on ``port`` (on any interface), checked the way
    gunicorn will bind it."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        probe.bind(("0.0.0.0", port))
    except OSError:
        return True
    finally:
        probe.close()
    return False


def database_url(instance: str) -> str:
    """The database the server will use (as create_app chooses it)."""
    return os.environ.get("DATABASE_URL") or "sqlite:///" + os.path.join(instance, "mason.db")


def settings_problem(instance: str) -> str | None:
    """What keeps this server from starting, said so that a person knows what to set; None if
    nothing does. The session key is agreed with the other servers sharing the database here,
    before any worker starts (app/store/credentials.py)."""
    try:
        trusted_proxies(os.environ.get("TRUSTED_PROXIES"))
    except ValueError as error:
        return str(error)
    engine = sa.create_engine(database_url(instance), poolclass=NullPool)
    try:
        if shared_secret_key(engine, os.environ.get("SECRET_KEY") or None, instance) is None:
            return ("the database is not set up yet: run `make run` (or `.venv/bin/flask --app wsgi upgrade`, "
                    "then `.venv/bin/python -m app.serving.serve`).")
    except SecretKeyRefused as refused:
        return str(refused)
    except sa.exc.OperationalError as error:
        return f"the database cannot be reached ({str(error.orig).strip().splitlines()[0]}): check DATABASE_URL."
    finally:
        engine.dispose()
    return None


def main() -> None:
    try:
        port = number("PORT", "5000", low=1, high=65535)
        workers = number("WORKERS", "2", low=1, high=64)
        connections_per_address()  # (read by each worker as it starts: a wrong value stops the table here)
    except SettingError as refused:
        sys.exit(cannot_start(refused))
    if port_in_use(port):
        print(f"\n  Port {port} is already in use: is the table (or another server) already running?"
              f"\n  Stop it, or serve on another port: make run PORT={port + 1}\n", file=sys.stderr, flush=True)
        sys.exit(1)
    address = lan_address()
    public_url = setting("PUBLIC_URL") or f"http://{address}:{port}"
    os.environ["CARD_TABLE_PUBLIC_URL"] = public_url
    os.environ["CARD_TABLE_SERVING"] = "1"  # the workers leave out the `flask db` commands (config.py)

    instance = setting("INSTANCE") or os.path.join(PROJECT_ROOT, "instance")
    os.makedirs(instance, exist_ok=True)
    problem = settings_problem(instance)
    if problem:
        sys.exit(cannot_start(problem))

    # The admin password (if not set in the environment) before the workers start, so that it is
    # printed once, here.
    if not os.environ.get("ADMIN_PASSWORD"):
        ensure_admin_password(instance)
        if database_url(instance).startswith("postgresql"):
            print("\n  Several servers on this database? Give every one the same ADMIN_PASSWORD (docs/DEPLOY.md):"
                  "\n  this one's admin password is its own.\n", file=sys.stderr, flush=True)

    # Printed by the first worker once it serves (app/serving/gunicorn_config.py), not before.
    os.environ["CARD_TABLE_READY_MESSAGE"] = (
        f"\n  The card table is ready. Open {public_url} on any device on this network"
        f"\n  (on this computer: http://127.0.0.1:{port}). Stop with Ctrl+C.\n")
    os.execv(SERVING_PYTHON[0], gunicorn_command(port, workers))


def gunicorn_command(port: int, workers: int, target: str = "wsgi:app", folder: str = PROJECT_ROOT) -> list[str]:
    """How the table is served: gunicorn with gevent workers. (The benchmarks serve their
    baseline app, ``target`` in ``folder``, with the very same settings.)"""
    return [
        *SERVING_PYTHON, "-m", "gunicorn", "--config", "python:app.serving.gunicorn_config",
        "--worker-class", "app.serving.workers.TableWorker", "--workers", str(workers), "--worker-connections", "1000",
        "--bind", f"0.0.0.0:{port}", "--graceful-timeout", "5", "--keep-alive", "5",
        "--chdir", folder, target,
    ]


if __name__ == "__main__":
    main()
